import { useEffect } from 'react'
import { useTranslation } from '~/i18n/react'
import type { GoogleSigninMessage } from './google-button'

/** The page shown in the Google popup while it hands its result to the console window and closes. */
export function PopupResult({ message }: { message: GoogleSigninMessage | null }) {
  const { t } = useTranslation()
  useEffect(() => {
    if (!message) return
    if (window.opener && !window.opener.closed) {
      window.opener.postMessage(message, window.location.origin)
      window.close()
    }
  }, [message])
  return (
    <main className="entry" id="main">
      <div className="entry-card" role="status">
        <p>
          <span className="spinner" aria-hidden="true" /> {t('login.google.finishing')}
        </p>
        <p className="hint">{t('login.google.close_window')}</p>
      </div>
    </main>
  )
}
