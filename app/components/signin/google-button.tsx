import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { Icon } from '../ui/icon'

/** What the popup's callback page posts to the console window that opened it. */
export interface GoogleSigninMessage {
  type: 'google-signin'
  state: string
  id_token?: string
  error?: string
}

function randomState(): string {
  return [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, '0')).join('')
}

/**
 * Google sign-in (seed 000 §2.1, §8): opens a popup on /authentication/google, which sends it to the issuer; the
 * callback page posts the id_token (or the error) back here with the state this window chose. A popup closed
 * before answering (or blocked) gives the third-party-cookies warning.
 */
export function GoogleButton({ onIdToken, onError, disabled }: { onIdToken: (idToken: string) => void; onError: (key: string) => void; disabled?: boolean }) {
  const { t } = useTranslation()
  const [waiting, setWaiting] = useState(false)
  // The popup flow needs the page's script: the button stays disabled until it runs.
  const [ready, setReady] = useState(false)
  const stop = useRef<(() => void) | null>(null)
  useEffect(() => {
    setReady(true)
    return () => stop.current?.()
  }, [])

  function open() {
    stop.current?.()
    const state = randomState()
    const popup = window.open(`/authentication/google?state=${state}`, 'google-signin', 'popup,width=480,height=640')
    if (!popup) return onError('login.msg.error.google.popup_closed')
    setWaiting(true)
    let done = false
    const finish = () => {
      done = true
      setWaiting(false)
      window.removeEventListener('message', onMessage)
      clearInterval(timer)
      stop.current = null
    }
    const onMessage = (e: MessageEvent<GoogleSigninMessage>) => {
      if (e.origin !== window.location.origin || e.data?.type !== 'google-signin' || e.data.state !== state) return
      finish()
      if (e.data.id_token) onIdToken(e.data.id_token)
      else if (e.data.error === 'access_denied') onError('login.msg.error.google.denied')
      else if (e.data.error === 'unavailable') onError('login.msg.error.provider_unavailable')
      else onError('login.msg.error.google.invalid')
    }
    const timer = setInterval(() => {
      if (!popup.closed || done) return
      // The callback posts its message just before closing: give it a moment to arrive.
      setTimeout(() => {
        if (done) return
        finish()
        onError('login.msg.error.google.popup_closed')
      }, 500)
      clearInterval(timer)
    }, 400)
    window.addEventListener('message', onMessage)
    stop.current = finish
  }

  return (
    <button type="button" className="btn btn-block btn-google" onClick={open} disabled={disabled || waiting || !ready} aria-busy={waiting}>
      {waiting ? <span className="spinner" aria-hidden="true" /> : <Icon name="google" />}
      {waiting ? t('login.google.waiting') : t('login.google.button')}
    </button>
  )
}
