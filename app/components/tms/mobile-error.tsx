import { isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'

/** A mobile-web page's error state: its message (or "not found" for a 404) and a retry of the same address. */
export function MobileRouteError({ message }: { message: string }) {
  const error = useRouteError()
  const { t } = useTranslation()
  const { pathname, search } = useLocation()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="mobile">
      <main className="mobile-content" id="main">
        <div className="card" role="alert">
          <h1>{t(notFound ? 'deeplink.error.realm' : message)}</h1>
          <a href={`${pathname}${search}`} className="btn btn-primary">
            <Icon name="refresh" /> {t('mobile.tms.retry')}
          </a>
        </div>
      </main>
    </div>
  )
}
