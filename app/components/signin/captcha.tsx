import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { solvePow } from '#shared/pow'
import { sessionKey } from '~/lib/session-key'
import type { CaptchaChallenge, CaptchaVerification } from '#shared/schemas/captcha'
import type { RealmConfig } from '#shared/schemas/realm'
import { Icon } from '../ui/icon'

type State =
  | { step: 'idle' }
  | { step: 'loading' }
  | { step: 'solving'; progress: number }
  | { step: 'challenge'; challenge: CaptchaChallenge; message?: string }
  | { step: 'verifying'; challenge: CaptchaChallenge }
  | { step: 'verified'; token: string }
  | { step: 'error'; message: string }

type CaptchaConfig = Pick<RealmConfig, 'realm' | 'api_endpoint' | 'captcha_type'>

async function post<T>(config: CaptchaConfig, path: string, body: unknown): Promise<{ ok: boolean; data: T & { errors?: { cause: string }[] } }> {
  const res = await fetch(new URL(`captcha/${path}`, config.api_endpoint), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-session-key': sessionKey() },
    body: JSON.stringify(body),
  })
  return { ok: res.ok, data: (await res.json().catch(() => ({}))) as T & { errors?: { cause: string }[] } }
}

/** Finds the proof-of-work nonce in a Web Worker (the page stays responsive); on the main thread where there is none. */
function solveInBackground(challenge: CaptchaChallenge, onProgress: (tried: number) => void, isCancelled: () => boolean): Promise<string | null> {
  const difficulty = challenge.data.difficulty ?? 0
  let worker: Worker | null = null
  try {
    worker = new Worker(new URL('../../workers/pow.worker.ts', import.meta.url), { type: 'module' })
  } catch {
    worker = null
  }
  if (!worker) return solvePow(challenge.challengeId, difficulty, onProgress, isCancelled)
  const w = worker
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (isCancelled()) {
        clearInterval(timer)
        w.terminate()
        resolve(null)
      }
    }, 250)
    w.onmessage = (e: MessageEvent<{ type: 'progress'; tried: number } | { type: 'done'; nonce: string | null }>) => {
      if (e.data.type === 'progress') return onProgress(e.data.tried)
      clearInterval(timer)
      w.terminate()
      resolve(e.data.nonce)
    }
    w.onerror = () => {
      clearInterval(timer)
      w.terminate()
      resolve(solvePow(challenge.challengeId, difficulty, onProgress, isCancelled))
    }
    w.postMessage({ challengeId: challenge.challengeId, difficulty })
  })
}

/**
 * The captcha widget (seed 000 §4): proof of work is solved automatically in the background with a progress bar;
 * text and image challenges open on a click in a panel with the question or picture. Success gives a single-use
 * token, posted with the form as `captcha_token` (and the visitor's `session_key`); a wrong answer fetches a new
 * challenge. `onToken` reports the token (null while unsolved), so the form can keep its submit disabled.
 */
export function Captcha({ config, locale, onToken }: { config: CaptchaConfig; locale: string; onToken: (token: string | null) => void }) {
  const { t } = useTranslation()
  const id = useId()
  const [state, setState] = useState<State>({ step: 'idle' })
  const [answer, setAnswer] = useState('')
  const [key, setKey] = useState('')
  const cancelled = useRef(false)
  const type = config.captcha_type || 'pow'

  useEffect(() => {
    setKey(sessionKey())
    cancelled.current = false
    return () => {
      cancelled.current = true
    }
  }, [])

  useEffect(() => onToken(state.step === 'verified' ? state.token : null), [state, onToken])

  async function verify(challenge: CaptchaChallenge, value: string): Promise<void> {
    setState({ step: 'verifying', challenge })
    // The server decides the kind (the realm's); the answer goes back as the kind of challenge it answered.
    const payload = challenge.type === 'pow' ? { challengeId: challenge.challengeId, solution: value } : { challengeId: challenge.challengeId, answer: value }
    try {
      const res = await post<CaptchaVerification>(config, 'verify', { type: challenge.type, realm: config.realm, payload })
      if (cancelled.current) return
      if (res.ok && res.data.valid && res.data.token) return setState({ step: 'verified', token: res.data.token })
      // Every challenge serves once: after a wrong answer or any other failure a new one is fetched.
      const wrong = res.data.errors?.some((e) => e.cause === 'verification_failed')
      return start(wrong ? 'captcha.error.wrong' : 'captcha.error.verify')
    } catch {
      return start('captcha.error.verify')
    }
  }

  async function start(message?: string): Promise<void> {
    setAnswer('')
    setState({ step: 'loading' })
    let challenge: CaptchaChallenge
    try {
      const res = await post<CaptchaChallenge>(config, 'challenge', { realm: config.realm, type, lang: locale })
      if (!res.ok || !res.data.challengeId) throw new Error('challenge')
      challenge = res.data
    } catch {
      if (!cancelled.current) setState({ step: 'error', message: 'captcha.error.generate' })
      return
    }
    if (cancelled.current) return
    if (challenge.type !== 'pow') return setState({ step: 'challenge', challenge, message })
    const expected = 2 ** (challenge.data.difficulty ?? 0)
    setState({ step: 'solving', progress: 0 })
    const nonce = await solveInBackground(
      challenge,
      (tried) => !cancelled.current && setState({ step: 'solving', progress: Math.min(99, Math.round(100 * (1 - Math.exp(-tried / expected)))) }),
      () => cancelled.current,
    )
    if (nonce === null || cancelled.current) return
    await verify(challenge, nonce)
  }

  // Proof of work needs no person: it starts as soon as the widget is shown (a new widget is a new challenge).
  useEffect(() => {
    if (type === 'pow') void start()
    // Runs once per widget; the parent remounts the widget (with a new key) when a new captcha is needed.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per mount by design (see above): `start` is a new function every render
  }, [])

  const busy = state.step === 'loading' || state.step === 'verifying' || state.step === 'solving'
  const challenge = state.step === 'challenge' || state.step === 'verifying' ? state.challenge : null
  return (
    <div className="captcha" role="group" aria-labelledby={`${id}-title`} data-captcha-state={state.step} aria-busy={busy}>
      <input type="hidden" name="captcha_token" value={state.step === 'verified' ? state.token : ''} />
      <input type="hidden" name="session_key" value={key} />
      <span id={`${id}-title`} className="visually-hidden">
        {t('captcha.label')}
      </span>
      {state.step === 'verified' ? (
        <p className="captcha-status captcha-ok" role="status">
          <Icon name="check" /> {t('captcha.verified')}
        </p>
      ) : state.step === 'solving' || (type === 'pow' && (state.step === 'loading' || state.step === 'verifying' || state.step === 'idle')) ? (
        <div className="captcha-status" role="status">
          <span className="spinner" aria-hidden="true" /> {t('captcha.pow.solving')}
          <progress max={100} value={state.step === 'solving' ? state.progress : undefined} aria-label={t('captcha.pow.progress')} />
        </div>
      ) : state.step === 'error' ? (
        <div className="captcha-status" role="alert">
          {t(state.message)}{' '}
          <button type="button" className="btn btn-link" onClick={() => void start()}>
            {t('captcha.retry')}
          </button>
        </div>
      ) : state.step === 'idle' || state.step === 'loading' ? (
        <button type="button" className="btn captcha-start" onClick={() => void start()} disabled={busy}>
          {busy ? <span className="spinner" aria-hidden="true" /> : <Icon name="shield" />} {t('captcha.start')}
        </button>
      ) : null}
      {challenge ? (
        <div className="captcha-panel" role="dialog" aria-modal="false" aria-labelledby={`${id}-prompt`}>
          <p id={`${id}-prompt`} className="captcha-prompt">
            {challenge.type === 'image' ? t('captcha.image.prompt') : t('captcha.text.prompt')}
          </p>
          {challenge.type === 'image' ? (
            <img
              className="captcha-image"
              src={challenge.data.image}
              width={challenge.data.width}
              height={challenge.data.height}
              alt={t('captcha.image.alt')}
            />
          ) : (
            <p className="captcha-question">{challenge.data.question}</p>
          )}
          {state.step === 'challenge' && state.message ? (
            <p className="error" role="alert">
              {t(state.message)}
            </p>
          ) : null}
          <div className="input-group">
            <label htmlFor={`${id}-answer`} className="visually-hidden">
              {t('captcha.answer')}
            </label>
            <input
              id={`${id}-answer`}
              className="input"
              value={answer}
              autoComplete="off"
              autoCapitalize={challenge.type === 'image' ? 'characters' : 'none'}
              inputMode={challenge.type === 'text' ? 'numeric' : 'text'}
              maxLength={challenge.type === 'image' ? (challenge.data.length ?? 5) + 4 : 10}
              onChange={(e) => setAnswer(e.currentTarget.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault()
                  if (answer.trim() && state.step === 'challenge') void verify(challenge, answer.trim())
                }
              }}
              placeholder={t('captcha.answer')}
            />
            <button
              type="button"
              className="btn btn-primary"
              disabled={!answer.trim() || state.step === 'verifying'}
              onClick={() => void verify(challenge, answer.trim())}
            >
              {state.step === 'verifying' ? <span className="spinner" aria-hidden="true" /> : null}
              {t('captcha.confirm')}
            </button>
          </div>
          <button type="button" className="btn btn-link" onClick={() => void start()} disabled={state.step === 'verifying'}>
            {t('captcha.refresh')}
          </button>
        </div>
      ) : null}
    </div>
  )
}
