import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'

/** The 404 page (seed 000 §2.1): "You are lost", explanation, back to home. */
export function NotFound() {
  const { t } = useTranslation()
  return (
    <main className="entry" id="main">
      <div className="entry-card lost">
        <p className="code" aria-hidden="true">
          404
        </p>
        <h1>{t('notfound.title')}</h1>
        <p className="lead">{t('notfound.description')}</p>
        <Link to="/" className="btn btn-primary">
          {t('notfound.home')}
        </Link>
      </div>
    </main>
  )
}
