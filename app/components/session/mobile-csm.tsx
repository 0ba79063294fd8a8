import { isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'

/** Shared bits of the mobile-web sessions pages (`/mobile/csm`, `/mobile/csm/watch/{id}`; issue 15). */

/** `?realm=` of a multi-realm host's link, kept on every link and form of the pages. */
export function realmQuery(request: Request): string {
  const realm = new URL(request.url).searchParams.get('realm')
  return realm ? `realm=${encodeURIComponent(realm)}` : ''
}
export const withQuery = (path: string, ...parts: string[]) => {
  const q = parts.filter(Boolean).join('&')
  return q ? `${path}?${q}` : path
}

/** Any failure of a sessions page: the mobile page's own error state (not found, or could not load), with a retry. */
export function MobileCsmError() {
  const error = useRouteError()
  const { t } = useTranslation()
  const { pathname, search } = useLocation()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <div className="mobile">
      <main className="mobile-content" id="main">
        <div className="card" role="alert">
          <h1>{t(notFound ? 'mobile.csm.not_found' : 'mobile.csm.load_error')}</h1>
          <a href={notFound ? '/mobile/csm' : `${pathname}${search}`} className="btn btn-primary">
            <Icon name={notFound ? 'home' : 'refresh'} /> {t(notFound ? 'mobile.csm.back' : 'mobile.csm.retry')}
          </a>
        </div>
      </main>
    </div>
  )
}
