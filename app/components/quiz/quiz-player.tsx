import { useTranslation } from 'react-i18next'
import { OPTIONS } from '../../../party/quiz-protocol'
import { secondsLeft, useQuizLive, useTick } from './use-quiz-live'

/**
 * The player's phone-sized view of a running quiz (issue 14): the current question the moment it is published, one
 * tap to answer (acknowledged by the party; resent after a reconnection), whether they were right and their score and
 * rank when the result is shown, and the extra life within its timeout when they missed.
 */
export function QuizPlayer({ quizId, guest, signinHref }: { quizId: string; guest: string | null; signinHref: string }) {
  const { t } = useTranslation()
  const { state, send } = useQuizLive(quizId, guest)
  const ticking = state.phase === 'open' || state.lifeUntil !== null
  const now = useTick(ticking)
  const left = secondsLeft(state.deadline, state.offset, now)
  const lifeLeft = secondsLeft(state.lifeUntil, state.offset, now)
  if (state.status === 'signin')
    return (
      <p role="alert">
        <a href={signinHref}>{t('quiz.play.signin')}</a>
      </p>
    )
  if (state.status === 'refused')
    return <p role="alert">{t('quiz.live.refused', { cause: t(`quiz.cause.${state.cause}`, { defaultValue: state.cause ?? '' }) })}</p>
  if (state.status === 'connecting') return <p aria-busy="true">{t('quiz.live.connecting')}</p>
  const q = state.question
  const mine = state.answer && q && state.answer.question_id === q.id ? state.answer.option : null
  const chosen = mine ?? (state.sending && q && state.sending.question_id === q.id ? state.sending.option : null)
  const standing = state.standing
  return (
    <section className="quiz-player" aria-labelledby="quiz-player-title">
      <h2 id="quiz-player-title">{state.quiz?.name}</h2>
      {state.status === 'reconnecting' ? <p className="badge">{t('quiz.live.reconnecting')}</p> : null}
      {standing ? (
        <p className="quiz-standing" aria-live="polite">
          {t('quiz.play.standing', { score: standing.score, lives: standing.lives_left })}
          {state.rank ? ` · ${t('quiz.play.rank', { rank: state.rank })}` : ''}
          {standing.eliminated ? ` · ${t('quiz.out')}` : ''}
        </p>
      ) : null}
      {state.phase === 'ended' ? <p role="status">{t('quiz.play.ended')}</p> : null}
      {q && (state.phase === 'open' || state.phase === 'result') ? (
        <div className="quiz-question">
          <p className="quiz-timer" aria-live="polite">
            {state.phase === 'open' ? t('quiz.live.time_left', { seconds: left }) : t('quiz.play.result')}
          </p>
          <h3>{q.text}</h3>
          <div className="quiz-options" role="group" aria-label={t('quiz.play.options')}>
            {OPTIONS.map((o) => (
              <button
                key={o}
                type="button"
                className={`btn quiz-answer${chosen === o ? ' chosen' : ''}${state.correct === o ? ' correct' : ''}`}
                aria-pressed={chosen === o}
                disabled={state.phase !== 'open' || chosen !== null || left === 0 || standing?.eliminated === true}
                onClick={() => send({ type: 'answer', question_id: q.id, option: o })}
              >
                <span className="quiz-option">{o}</span> {q.options[o]}
              </button>
            ))}
          </div>
          {mine ? <p role="status">{t('quiz.play.received', { option: mine })}</p> : chosen ? <p role="status">{t('quiz.play.sending')}</p> : null}
          {state.phase === 'result' && state.lastCorrect !== null ? (
            <p role="status" className={state.lastCorrect ? 'success' : 'error'}>
              {state.lastCorrect ? t('quiz.play.right') : t('quiz.play.wrong')}
            </p>
          ) : null}
          {state.lifeUntil !== null && lifeLeft > 0 && standing && standing.lives_left > 0 ? (
            <button type="button" className="btn primary" onClick={() => send({ type: 'life', question_id: q.id })}>
              {t('quiz.play.use_life', { seconds: lifeLeft })}
            </button>
          ) : null}
        </div>
      ) : state.phase !== 'ended' ? (
        <p>{t('quiz.play.waiting')}</p>
      ) : null}
      {state.notice ? <p role="alert">{t(`quiz.cause.${state.notice}`)}</p> : null}
      {state.leaderboard.length && state.phase !== 'open' ? (
        <ol className="quiz-leaderboard" aria-label={t('quiz.leaderboard')}>
          {state.leaderboard.map((r) => (
            <li key={r.nick}>
              {r.name} — {r.score}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  )
}
