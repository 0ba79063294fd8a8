import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { LiveControlFrame } from './live-control-frame'
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
  const seen = useRef<string | null>(null)
  useEffect(() => {
    if (state.status !== 'open') return
    if (seen.current !== null && seen.current !== state.phase) onChanged()
    seen.current = state.phase
  }, [state.status, state.phase, onChanged])
  const counts = state.counts ?? []
  const total = counts.reduce((n, c) => n + c, 0)
  return (
    <LiveControlFrame
      id="poll-live-title"
      title={t('poll.live.title')}
      refused={() => t('poll.live.refused', { cause: t(`quiz.cause.${state.cause}`, { defaultValue: state.cause ?? '' }) })}
      state={state}
      showQuestion={state.phase !== 'idle' && state.phase !== 'ended'}
      counts={() => (
        <>
          <ul className="quiz-counts" aria-label={t('resources.poll.distribution')}>
            {state.question!.labels.map((label, i) => (
              <li key={i}>
                {label} — <strong>{counts[i] ?? 0}</strong>
                <span className="quiz-bar" style={{ width: `${total ? Math.round(((counts[i] ?? 0) / total) * 100) : 0}%` }} aria-hidden="true" />
              </li>
            ))}
          </ul>
          <p>{t('poll.live.voted', { count: state.voted, players: state.players })}</p>
        </>
      )}
      showResult={t('resources.poll.show_result')}
      publishLabel={(n) => t('poll.live.publish', { n })}
      onResult={() => send({ type: 'result' })}
      onPublish={(id) => send({ type: 'publish', question_id: id })}
      actions={
        state.phase === 'open' || state.phase === 'result' ? (
          <button type="button" className="btn" onClick={() => send({ type: 'close' })}>
            {t('resources.poll.finish_question')}
          </button>
        ) : null
      }
    />
  )
}
