import { useTranslation } from 'react-i18next'
import { Icon } from '../ui/icon'

/** What the popup's callback page posts to the console window that opened it. */
export interface GoogleSigninMessage {
  type: 'google-signin'
  state: string
  id_token?: string
  error?: string
}

/**
 * Google sign-in (seed 000 §2.1, §8): the popup flow needs the page's script (signin-page.ts `wireGoogle`), so the
 * button is rendered disabled and enabled by it. The popup opens /authentication/google, which sends it to the
 * issuer; the callback page posts the id_token (or the error) back with the state this window chose, and the token
 * is posted to /login. A popup closed before answering (or blocked) gives the third-party-cookies warning.
 */
export function GoogleButton() {
  const { t } = useTranslation()
  return (
    <button type="button" className="btn btn-block btn-google" data-google="" disabled>
      <Icon name="google" />
      {t('login.google.button')}
    </button>
  )
}
