import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { Phase } from '../../../party/quiz-protocol'
import { secondsLeft, useTick, type QuizLiveStatus } from './use-quiz-live'

/** What the frame reads of a quiz's or poll's live state (use-quiz-live.ts, use-poll-live.ts). */
export interface LiveControlState {
  status: QuizLiveStatus
  phase: Phase
  players: number
  question: { position: number; text: string } | null
  deadline: number | null
  offset: number
  notice: string | null
  questions: { id: string; position: number; state: string }[]
}

/**
 * The moderator's live view of a running quiz or poll (issue 14; quiz-control.tsx, poll-control.tsx): players
 * connected, the open question with the time left (from the server's deadline) and what `counts` shows of its
 * answers, publish / show result and the mode's own `actions`, then `children`. Leaving the screen is blocked while
 * a question is published (seed 002 §4).
 */
export function LiveControlFrame({
  id,
  title,
  refused,
  state,
  showQuestion,
  counts,
  showResult,
  publishLabel,
  onResult,
  onPublish,
  actions,
  children,
}: {
  /** The section's heading id. */
  id: string
  title: string
  /** The text shown when the party refused the moderator. */
  refused: () => string
  state: LiveControlState
  /** Whether the current question shows (else "no question"). */
  showQuestion: boolean
  /** The open question's answers as counted (only called while a question shows). */
  counts: () => ReactNode
  showResult: string
  publishLabel: (n: number) => string
  onResult: () => void
  onPublish: (questionId: string) => void
  /** Buttons after "show result" (close, finish). */
  actions: ReactNode
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const open = state.phase === 'open'
  const now = useTick(open)
  const left = secondsLeft(state.deadline, state.offset, now)
  const blocker = useUnsavedChanges(open)
  if (state.status === 'refused') return <p role="alert">{refused()}</p>
  if (state.status === 'connecting') return <p aria-busy="true">{t('quiz.live.connecting')}</p>
  const pending = state.questions.filter((q) => q.state === 'pending')
  return (
    <section className="card quiz-live" aria-labelledby={id}>
      {blocker}
      <h2 id={id}>{title}</h2>
      <p>
        <strong>{t('quiz.live.players', { count: state.players })}</strong>
        {state.status === 'reconnecting' ? <span className="badge"> {t('quiz.live.reconnecting')}</span> : null}
      </p>
      {state.question && showQuestion ? (
        <div className="quiz-current">
          <h3>
            {state.question.position + 1}. {state.question.text}
          </h3>
          {open ? (
            <p aria-live="polite" className="quiz-timer">
              {t('quiz.live.time_left', { seconds: left })}
            </p>
          ) : null}
          {counts()}
        </div>
      ) : (
        <p>{t('quiz.live.no_question')}</p>
      )}
      {state.notice ? <p role="alert">{t(`quiz.cause.${state.notice}`)}</p> : null}
      <div className="actions">
        {open ? (
          <button type="button" className="btn primary" onClick={onResult}>
            {showResult}
          </button>
        ) : null}
        {actions}
        {state.phase === 'idle'
          ? pending.map((q) => (
              <button key={q.id} type="button" className="btn" onClick={() => onPublish(q.id)}>
                {publishLabel(q.position + 1)}
              </button>
            ))
          : null}
      </div>
      {children}
    </section>
  )
}
