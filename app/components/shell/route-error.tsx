import { isRouteErrorResponse, useLocation, useRouteError } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { NotFoundCard } from './access-denied'

/** The list a record's page belongs to: the path before its `edit`, `detail`, `preview`… segment. */
export function listPathOf(pathname: string): string | undefined {
  const parts = pathname.split('/')
  const at = parts.findIndex((p, i) => i > 0 && /^(edit|detail|preview|resolution|control|purchase)$/.test(p))
  return at > 1 ? parts.slice(0, at).join('/') : undefined
}

/** Error state of a screen inside the shell: what failed, and a way to try again. */
export function RouteError() {
  const error = useRouteError()
  const { t } = useTranslation()
  const location = useLocation()
  // A record that does not exist (unknown id) is "not found", not a failure to retry.
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundCard kind="record" back={listPathOf(location.pathname)} />
  const items =
    isRouteErrorResponse(error) && Array.isArray((error.data as { errors?: unknown })?.errors)
      ? (error.data as { errors: { cause: string; message: string }[] }).errors
      : []
  return (
    <div className="card" role="alert">
      <h1>{t('app.error.title')}</h1>
      <p>{t('app.error.description')}</p>
      {items.length ? (
        <ul>
          {items.map((e, i) => (
            <li key={i}>{t(`errors.${e.cause}`, { defaultValue: e.message })}</li>
          ))}
        </ul>
      ) : null}
      <a className="btn btn-primary" href=".">
        {t('app.retry')}
      </a>
    </div>
  )
}
