import { useTranslation } from 'react-i18next'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { OPTIONS } from '../../../party/quiz-protocol'
import { secondsLeft, useQuizLive, useTick } from './use-quiz-live'

/**
 * The moderator's live view of a running quiz (issue 14): players connected, the open question with the time left
 * (from the server's deadline), answers per option as they arrive, publish / show result / close, the leaderboard.
 * Leaving the screen is blocked while a question is published (seed 002 §4).
 */
export function QuizLiveControl({ quizId, onClosed }: { quizId: string; onClosed: () => void }) {
  const { t } = useTranslation()
  const { state, send } = useQuizLive(quizId, null)
  const open = state.phase === 'open'
  const now = useTick(open)
  const left = secondsLeft(state.deadline, state.offset, now)
  const blocker = useUnsavedChanges(open)
  const total = OPTIONS.reduce((n, o) => n + state.counts[o], 0)
  if (state.status === 'refused') return <p role="alert">{t('quiz.live.refused', { cause: state.cause ?? '' })}</p>
  if (state.status === 'connecting') return <p aria-busy="true">{t('quiz.live.connecting')}</p>
  const pending = state.questions.filter((q) => q.state === 'pending')
  return (
    <section className="card quiz-live" aria-labelledby="quiz-live-title">
      {blocker}
      <h2 id="quiz-live-title">{t('quiz.live.title')}</h2>
      <p>
        <strong>{t('quiz.live.players', { count: state.players })}</strong>
        {state.status === 'reconnecting' ? <span className="badge"> {t('quiz.live.reconnecting')}</span> : null}
      </p>
      {state.question && state.phase !== 'idle' ? (
        <div className="quiz-current">
          <h3>
            {state.question.position + 1}. {state.question.text}
          </h3>
          {open ? (
            <p aria-live="polite" className="quiz-timer">
              {t('quiz.live.time_left', { seconds: left })}
            </p>
          ) : null}
          <ul className="quiz-counts" aria-label={t('quiz.live.answers_per_option')}>
            {OPTIONS.map((o) => (
              <li key={o} className={state.correct === o ? 'correct' : undefined}>
                <span className="quiz-option">{o}</span> {state.question!.options[o]} — <strong>{state.counts[o]}</strong>
                <span className="quiz-bar" style={{ width: `${total ? Math.round((state.counts[o] / total) * 100) : 0}%` }} aria-hidden="true" />
                {state.correct === o ? <span className="badge">{t('quiz.live.correct')}</span> : null}
              </li>
            ))}
          </ul>
          <p>{t('quiz.live.answered', { count: total, players: state.players })}</p>
        </div>
      ) : (
        <p>{t('quiz.live.no_question')}</p>
      )}
      {state.notice ? <p role="alert">{t(`quiz.cause.${state.notice}`)}</p> : null}
      <div className="actions">
        {open ? (
          <button type="button" className="btn primary" onClick={() => send({ type: 'result' })}>
            {t('quiz.live.show_result')}
          </button>
        ) : null}
        {state.phase === 'result' ? (
          <button
            type="button"
            className="btn primary"
            onClick={() => {
              send({ type: 'close' })
              onClosed()
            }}
          >
            {t('quiz.live.close')}
          </button>
        ) : null}
        {state.phase === 'idle'
          ? pending.map((q) => (
              <button key={q.id} type="button" className="btn" onClick={() => send({ type: 'publish', question_id: q.id })}>
                {t('quiz.live.publish', { n: q.position + 1 })}
              </button>
            ))
          : null}
      </div>
      {state.leaderboard.length ? (
        <table className="table">
          <caption>{t('quiz.leaderboard')}</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">{t('quiz.player')}</th>
              <th scope="col">{t('quiz.score')}</th>
            </tr>
          </thead>
          <tbody>
            {state.leaderboard.map((r) => (
              <tr key={r.nick}>
                <td>{r.rank}</td>
                <td>
                  {r.name}
                  {r.eliminated ? ` (${t('quiz.out')})` : ''}
                </td>
                <td>{r.score}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  )
}
