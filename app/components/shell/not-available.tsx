import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { routeById } from '#shared/manifest'

/**
 * The honest state of a specified screen that this version does not build yet: the route exists behind its real
 * guard (so access is already decided), and says plainly that the screen is not available.
 */
export function NotAvailable({ routeId, standalone = false }: { routeId: string; standalone?: boolean }) {
  const { t } = useTranslation()
  const page = t(routeById(routeId).title)
  const body = (
    <section className="card not-available" aria-labelledby="not-available-title">
      <h1 id="not-available-title">{t('pages.unavailable.title', { page })}</h1>
      <p>{t('pages.unavailable.description')}</p>
      <Link to="/" className="btn btn-primary">
        {t('pages.unavailable.back')}
      </Link>
    </section>
  )
  return standalone ? (
    <main className="entry" id="main">
      <div className="entry-card">{body}</div>
    </main>
  ) : (
    body
  )
}
