// `google_` keeps this page out of the /authentication/google layout: its loader would run here too.
import { useEffect, useState } from 'react'
import { PopupResult } from '~/components/signin/popup-result'
import type { GoogleSigninMessage } from '~/components/signin/google-button'

export const handle = { title: 'login.google.button' }

/**
 * Where the issuer returns the popup: the fragment carries `id_token` (or `error=access_denied`) and the state; the
 * page hands them to the console window that opened the popup. The token never reaches this server in a URL.
 */
export default function GoogleCallback() {
  const [message, setMessage] = useState<GoogleSigninMessage | null>(null)
  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1))
    setMessage({
      type: 'google-signin',
      state: fragment.get('state') ?? '',
      id_token: fragment.get('id_token') ?? undefined,
      error: fragment.get('error') ?? (fragment.get('id_token') ? undefined : 'invalid'),
    })
    // Keep the token out of the history of the popup.
    window.history.replaceState(null, '', window.location.pathname)
  }, [])
  return <PopupResult message={message} />
}
