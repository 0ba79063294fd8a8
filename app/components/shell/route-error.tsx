import { isRouteErrorResponse, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'

/** Error state of a screen inside the shell: what failed, and a way to try again. */
export function RouteError() {
  const error = useRouteError()
  const { t } = useTranslation()
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
