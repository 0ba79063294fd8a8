import { Link } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { permissionLabel } from '~/lib/permission-diff'

/** What a refused page needs that the user lacks: permissions (all of, or one of) and realm flags. */
export interface Missing {
  all: string[]
  any: string[]
  flags: string[]
}

/**
 * Inside the shell, for a signed-in user sent to /notfound by a route guard (seed 000 §2.2): says they have no
 * access to that page, names what is missing with translated labels and links back to the page they came from.
 */
export function AccessDenied({ title, path, missing, from }: { title: string; path: string; missing: Missing; from: string | null }) {
  const { t } = useTranslation()
  const item = (p: string) => (
    <li key={p}>
      {permissionLabel(t, p)} <code className="hint">{p}</code>
    </li>
  )
  return (
    <div className="card access-denied" role="alert" aria-labelledby="access-denied-title">
      <h1 id="access-denied-title">{t('access.denied.title')}</h1>
      <p className="lead">{t('access.denied.page', { page: t(title), path })}</p>
      {missing.all.length ? (
        <>
          <h2>{t('access.denied.all', { count: missing.all.length })}</h2>
          <ul>{missing.all.map(item)}</ul>
        </>
      ) : null}
      {missing.any.length ? (
        <>
          <h2>{t('access.denied.any')}</h2>
          <ul>{missing.any.map(item)}</ul>
        </>
      ) : null}
      {missing.flags.length ? (
        <>
          <h2>{t('access.denied.flags')}</h2>
          <ul>
            {missing.flags.map((f) => (
              <li key={f}>{t(`access.flag.${f}`)}</li>
            ))}
          </ul>
        </>
      ) : null}
      <p>{t(missing.flags.length && !missing.all.length && !missing.any.length ? 'access.denied.hint_flags' : 'access.denied.hint')}</p>
      <div className="form-actions">
        {from ? (
          <Link to={from} className="btn btn-primary">
            {t('access.denied.back')}
          </Link>
        ) : null}
        <Link to="/" className={from ? 'btn' : 'btn btn-primary'}>
          {t('notfound.home')}
        </Link>
      </div>
    </div>
  )
}

/** Inside the shell: the page or record asked for does not exist (404), with a way back. */
export function NotFoundCard({ kind = 'page', back }: { kind?: 'page' | 'record'; back?: string }) {
  const { t } = useTranslation()
  return (
    <div className="card" role="alert" aria-labelledby="not-found-title">
      <h1 id="not-found-title">{t(`notfound.${kind}.title`)}</h1>
      <p className="lead">{t(`notfound.${kind}.description`)}</p>
      <div className="form-actions">
        {back ? (
          <Link to={back} className="btn btn-primary">
            {t('notfound.back')}
          </Link>
        ) : null}
        <Link to="/" className={back ? 'btn' : 'btn btn-primary'}>
          {t('notfound.home')}
        </Link>
      </div>
    </div>
  )
}
