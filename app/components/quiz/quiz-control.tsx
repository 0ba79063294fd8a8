import { useTranslation } from 'react-i18next'
import { OPTIONS } from '../../../party/quiz-protocol'
import { LiveControlFrame } from './live-control-frame'
import { useQuizLive } from './use-quiz-live'

/**
 * The moderator's live view of a running quiz (issue 14): players connected, the open question with the time left
 * (from the server's deadline), answers per option as they arrive, publish / show result / close, the leaderboard.
 * Leaving the screen is blocked while a question is published (seed 002 §4).
 */
export function QuizLiveControl({ quizId, onClosed }: { quizId: string; onClosed: () => void }) {
  const { t } = useTranslation()
  const { state, send } = useQuizLive(quizId, null)
  const total = OPTIONS.reduce((n, o) => n + state.counts[o], 0)
  return (
    <LiveControlFrame
      id="quiz-live-title"
      title={t('quiz.live.title')}
      refused={() => t('quiz.live.refused', { cause: state.cause ?? '' })}
      state={state}
      showQuestion={state.phase !== 'idle'}
      counts={() => (
        <>
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
        </>
      )}
      showResult={t('quiz.live.show_result')}
      publishLabel={(n) => t('quiz.live.publish', { n })}
      onResult={() => send({ type: 'result' })}
      onPublish={(id) => send({ type: 'publish', question_id: id })}
      actions={
        state.phase === 'result' ? (
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
        ) : null
      }
    >
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
    </LiveControlFrame>
  )
}
