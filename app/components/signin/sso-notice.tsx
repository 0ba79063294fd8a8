import { useTranslation } from '~/i18n/react'
import { Icon } from '../ui/icon'

/** "Public staff must use the state single sign-on portal" (seed 000 §2.1), with the button to go there. */
export function SsoNotice({ url }: { url: string }) {
  const { t } = useTranslation()
  if (!url) return null
  return (
    <aside className="alert alert-info sso-notice" aria-labelledby="sso-notice-title">
      <p id="sso-notice-title">{t('login.sso.notice')}</p>
      <a className="btn" href={url}>
        <Icon name="external" /> {t('login.sso.button')}
      </a>
    </aside>
  )
}
