import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'

/** A realm-switch handover that cannot finish (unknown, used, expired, or not started in this browser). */
export function HandoverFailed() {
  const { t } = useTranslation()
  return (
    <main className="entry" id="main">
      <div className="entry-card" role="alert">
        <h1>{t('realm.switch.title')}</h1>
        <p className="lead">{t('realm.switch.handover_failed')}</p>
        <Link className="btn btn-primary" to="/" reloadDocument>
          {t('notfound.home')}
        </Link>
      </div>
    </main>
  )
}
