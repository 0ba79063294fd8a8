import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { POLL_GENDERS, PollProfile, type PollRequirement } from '../../../party/quiz-protocol'
import { secondsLeft, useTick } from './use-quiz-live'
import { usePollLive } from './use-poll-live'

/**
 * A voter's phone-sized view of a running poll (issue 14): the poll's requirements (age, gender, location) answered
 * once, then the question the moment it is published, the vote (one tap for a single choice or a rating; boxes and
 * "Vote" for several choices), acknowledged by the party (resent after a reconnection), and the distribution when the
 * moderator shows the result.
 */
export function PollPlayer({ pollId, guest, signinHref }: { pollId: string; guest: string | null; signinHref: string }) {
  const { t } = useTranslation()
  const { state, send } = usePollLive(pollId, guest)
  const now = useTick(state.phase === 'open')
  const left = secondsLeft(state.deadline, state.offset, now)
  const [picked, setPicked] = useState<number[]>([])
  if (state.status === 'signin')
    return (
      <p role="alert">
        <a href={signinHref}>{t('quiz.play.signin')}</a>
      </p>
    )
  if (state.status === 'refused')
    return <p role="alert">{t('poll.live.refused', { cause: t(`quiz.cause.${state.cause}`, { defaultValue: state.cause ?? '' }) })}</p>
  if (state.status === 'connecting') return <p aria-busy="true">{t('quiz.live.connecting')}</p>
  const requires = state.poll?.requires ?? []
  const missing = requires.filter((r) => state.profile?.[r] === undefined)
  const q = state.question
  const mine = state.vote && q && state.vote.question_id === q.id ? state.vote.choices : null
  const pending = state.sending && q && state.sending.question_id === q.id ? state.sending.choices : null
  const chosen = mine ?? pending
  const closed = state.phase !== 'open' || left === 0 || chosen !== null
  const vote = (choices: number[]) => q && send({ type: 'vote', question_id: q.id, choices })
  return (
    <section className="quiz-player poll-player" aria-labelledby="poll-player-title">
      <h2 id="poll-player-title">{state.poll?.name}</h2>
      {state.status === 'reconnecting' ? <p className="badge">{t('quiz.live.reconnecting')}</p> : null}
      {state.phase === 'ended' ? <p role="status">{t('poll.play.ended')}</p> : null}
      {missing.length && state.phase !== 'ended' ? (
        <RequirementsForm requires={requires} onSubmit={(profile) => send({ type: 'profile', profile })} />
      ) : q && (state.phase === 'open' || state.phase === 'result') ? (
        <div className="quiz-question">
          <p className="quiz-timer" aria-live="polite">
            {state.phase === 'open' ? t('quiz.live.time_left', { seconds: left }) : t('quiz.play.result')}
          </p>
          <h3>{q.text}</h3>
          {q.type === 'multiple' ? (
            <form
              onSubmit={(e) => {
                e.preventDefault()
                if (picked.length) vote(picked)
              }}
            >
              <fieldset className="poll-choices" disabled={closed}>
                <legend>{q.max_choices ? t('poll.play.choose_up_to', { count: q.max_choices }) : t('poll.play.choose_any')}</legend>
                {q.labels.map((label, i) => (
                  <label key={i} className="checkbox">
                    <input
                      type="checkbox"
                      checked={(chosen ?? picked).includes(i)}
                      onChange={(e) => setPicked((p) => (e.target.checked ? [...p, i] : p.filter((x) => x !== i)))}
                    />{' '}
                    {label}
                    {state.counts ? ` — ${state.counts[i] ?? 0}` : ''}
                  </label>
                ))}
              </fieldset>
              {closed ? null : (
                <button type="submit" className="btn primary" disabled={!picked.length || (q.max_choices > 0 && picked.length > q.max_choices)}>
                  {t('poll.play.vote')}
                </button>
              )}
            </form>
          ) : (
            <div className={`quiz-options${q.type === 'rating' ? ' poll-rating' : ''}`} role="group" aria-label={t('quiz.play.options')}>
              {q.labels.map((label, i) => (
                <button
                  key={i}
                  type="button"
                  className={`btn quiz-answer${chosen?.includes(i) ? ' chosen' : ''}`}
                  aria-pressed={chosen?.includes(i) ?? false}
                  disabled={closed}
                  onClick={() => vote([i])}
                >
                  {label}
                  {state.counts ? <strong> — {state.counts[i] ?? 0}</strong> : null}
                </button>
              ))}
            </div>
          )}
          {mine ? <p role="status">{t('poll.play.voted')}</p> : pending ? <p role="status">{t('quiz.play.sending')}</p> : null}
          {state.phase === 'result' ? <p>{t('resources.poll.voters', { count: state.voted })}</p> : null}
        </div>
      ) : state.phase !== 'ended' ? (
        <p>{t('quiz.play.waiting')}</p>
      ) : null}
      {state.notice ? <p role="alert">{t(`quiz.cause.${state.notice}`)}</p> : null}
    </section>
  )
}

/** The poll's requirements, checked here with the party's own schema (the party checks them again). */
function RequirementsForm({ requires, onSubmit }: { requires: PollRequirement[]; onSubmit: (profile: PollProfile) => void }) {
  const { t } = useTranslation()
  const [errors, setErrors] = useState<Partial<Record<PollRequirement, string>>>({})
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    const data = new FormData(e.currentTarget)
    const raw: Record<string, unknown> = {}
    const found: Partial<Record<PollRequirement, string>> = {}
    for (const r of requires) {
      const value = String(data.get(r) ?? '').trim()
      if (!value) found[r] = 'validation.required'
      else raw[r] = r === 'age' ? Number(value) : value
    }
    const parsed = v.safeParse(PollProfile, raw)
    if (!parsed.success)
      for (const issue of parsed.issues) {
        const key = issue.path?.[0]?.key as PollRequirement | undefined
        if (key && !found[key]) found[key] = issue.message
      }
    setErrors(found)
    if (parsed.success && !Object.keys(found).length) onSubmit(parsed.output)
  }
  const field = (r: PollRequirement) => {
    const id = `poll-req-${r}`
    const error = errors[r]
    const described = error ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` } : {}
    return (
      <div className="field" key={r}>
        <label htmlFor={id}>{t(`resources.poll.requires.${r}`)}</label>
        {r === 'gender' ? (
          <select id={id} name={r} className="input" required {...described}>
            <option value="">{t('poll.play.choose')}</option>
            {POLL_GENDERS.map((g) => (
              <option key={g} value={g}>
                {t(`poll.play.gender.${g}`)}
              </option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            name={r}
            className="input"
            required
            {...(r === 'age'
              ? { type: 'number', inputMode: 'numeric' as const, min: 1, max: 130 }
              : { type: 'text', maxLength: 80, autoComplete: 'address-level2' })}
            {...described}
          />
        )}
        {error ? (
          <p id={`${id}-error`} className="error">
            {t(error)}
          </p>
        ) : null}
      </div>
    )
  }
  return (
    <form className="card poll-requirements" aria-labelledby="poll-req-title" onSubmit={submit} noValidate>
      <h3 id="poll-req-title">{t('poll.play.requirements')}</h3>
      <p className="hint">{t('resources.poll.hints.requires')}</p>
      {requires.map(field)}
      <button type="submit" className="btn primary">
        {t('poll.play.continue')}
      </button>
    </form>
  )
}
