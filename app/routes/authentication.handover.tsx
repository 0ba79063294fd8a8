import { data, redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RealmApiError, realmApi } from '~/server/api.server'
import { sessionCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'realm.switch.title' }

/**
 * Arrival on a realm's own host after a realm switch: claims the one-time handover code for a session of this
 * host (cookies are per host), sets the session cookie and opens the console at `/` (seed 000 §4).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const code = new URL(request.url).searchParams.get('code') ?? ''
  const realm = await getRealmContext(request, context)
  if (!realm.config || !code) throw data({ failed: true }, { status: 400 })
  const api = realmApi(request, context, { endpoint: realm.config.api_endpoint, realm: realm.multirealm ? (realm.code ?? undefined) : undefined })
  let session: { auth_token: string; expires_at: string }
  try {
    session = await api.post<{ auth_token: string; expires_at: string }>('mas/session/handover/claim', { code })
  } catch (err) {
    if (err instanceof RealmApiError && err.status < 500) throw data({ failed: true }, { status: err.status })
    throw err
  }
  const seconds = Math.max(60, Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000))
  throw redirect('/', { headers: { 'Set-Cookie': await sessionCookie(request).serialize(session.auth_token, { maxAge: seconds }) } })
}

export default function Handover() {
  return null
}

/** A code that is unknown, used or expired: the switch cannot finish here; signing in again is the way on. */
export function ErrorBoundary() {
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
