import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { secondsLeft, useTick } from './use-quiz-live'
import { usePollLive } from './use-poll-live'

/**
 * The moderator's live view of a running poll (issue 14): players connected, the open question with the time left
 * (from the server's deadline), the votes per option as they arrive, publish / show result / finish. Leaving the
 * screen is blocked while a question is published (seed 002 §4). `onChanged` runs when a question opens, shows its
 * result or closes (its votes written), so the screen reads the question states and the distribution again from D1.
 */
export function PollLiveControl({ pollId, onChanged }: { pollId: string; onChanged: () => void }) {
  const { t } = useTranslation()
  const { state, send } = usePollLive(pollId, null)
  const open = state.phase === 'open'
  const now = useTick(open)
  const left = secondsLeft(state.deadline, state.offset, now)
  const blocker = useUnsavedChanges(open)
  const seen = useRef<string | null>(null)
  useEffect(() => {
    if (state.status !== 'open') return
    if (seen.current !== null && seen.current !== state.phase) onChanged()
    seen.current = state.phase
  }, [state.status, state.phase, onChanged])
  if (state.status === 'refused')
    return <p role="alert">{t('poll.live.refused', { cause: t(`quiz.cause.${state.cause}`, { defaultValue: state.cause ?? '' }) })}</p>
  if (state.status === 'connecting') return <p aria-busy="true">{t('quiz.live.connecting')}</p>
  const counts = state.counts ?? []
  const total = counts.reduce((n, c) => n + c, 0)
  const pending = state.questions.filter((q) => q.state === 'pending')
  return (
    <section className="card quiz-live" aria-labelledby="poll-live-title">
      {blocker}
      <h2 id="poll-live-title">{t('poll.live.title')}</h2>
      <p>
        <strong>{t('quiz.live.players', { count: state.players })}</strong>
        {state.status === 'reconnecting' ? <span className="badge"> {t('quiz.live.reconnecting')}</span> : null}
      </p>
      {state.question && state.phase !== 'idle' && state.phase !== 'ended' ? (
        <div className="quiz-current">
          <h3>
            {state.question.position + 1}. {state.question.text}
          </h3>
          {open ? (
            <p aria-live="polite" className="quiz-timer">
              {t('quiz.live.time_left', { seconds: left })}
            </p>
          ) : null}
          <ul className="quiz-counts" aria-label={t('resources.poll.distribution')}>
            {state.question.labels.map((label, i) => (
              <li key={i}>
                {label} — <strong>{counts[i] ?? 0}</strong>
                <span className="quiz-bar" style={{ width: `${total ? Math.round(((counts[i] ?? 0) / total) * 100) : 0}%` }} aria-hidden="true" />
              </li>
            ))}
          </ul>
          <p>{t('poll.live.voted', { count: state.voted, players: state.players })}</p>
        </div>
      ) : (
        <p>{t('quiz.live.no_question')}</p>
      )}
      {state.notice ? <p role="alert">{t(`quiz.cause.${state.notice}`)}</p> : null}
      <div className="actions">
        {open ? (
          <button type="button" className="btn primary" onClick={() => send({ type: 'result' })}>
            {t('resources.poll.show_result')}
          </button>
        ) : null}
        {open || state.phase === 'result' ? (
          <button type="button" className="btn" onClick={() => send({ type: 'close' })}>
            {t('resources.poll.finish_question')}
          </button>
        ) : null}
        {state.phase === 'idle'
          ? pending.map((q) => (
              <button key={q.id} type="button" className="btn" onClick={() => send({ type: 'publish', question_id: q.id })}>
                {t('poll.live.publish', { n: q.position + 1 })}
              </button>
            ))
          : null}
      </div>
    </section>
  )
}
