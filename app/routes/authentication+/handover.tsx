import { data, redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { HandoverFailed } from '~/components/signin/handover-failed'
import { HandoverSecret } from '#shared/schemas/handover'
import { apiData, realmApi, RealmApiError } from '~/server/api.server'
import { handoverNonceCookie, sessionCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'
import { randomToken, sha256Hex } from '../../../worker/lib/crypto'

export const handle = { title: 'realm.switch.title' }

const failed = (status: number) => data({ failed: true }, { status })

/**
 * Arrival on a realm's own host after a realm switch started on another host (seed 000 §4). Cookies are per host,
 * so the session moves with a one-time code, bound to the browser that started the switch in three legs (like
 * OAuth's state): otherwise anyone could send a victim their own code and sign the victim's browser in to the
 * sender's session (login CSRF).
 * - First arrival (`?code=`): binds the hash of a fresh nonce, kept in a cookie of this host, to the code (once),
 *   and sends the browser to the starting host (its address as stored at the switch) to vouch for it with the
 *   state cookie it set there (authentication+/handover_.confirm.tsx).
 * - Back from there (`?code=&step=claim`): claims the session with the nonce, sets the session cookie and opens
 *   the console at `/`.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const code = v.safeParse(HandoverSecret, url.searchParams.get('code') ?? '')
  const realm = await getRealmContext(request, context)
  if (!realm.config || !code.success) throw failed(400)
  const api = realmApi(request, context, { endpoint: realm.config.api_endpoint, realm: realm.multirealm ? (realm.code ?? undefined) : undefined })
  const nonces = handoverNonceCookie(request)
  try {
    if (url.searchParams.get('step') === 'claim') {
      const nonce = v.safeParse(HandoverSecret, await nonces.parse(request.headers.get('cookie')))
      // No nonce of this host: this browser did not arrive here first, so it did not start this switch.
      if (!nonce.success) throw failed(400)
      const session = await apiData(api.mas.session.handover.claim.$post({ json: { code: code.output, nonce: nonce.output } }))
      const seconds = Math.max(60, Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000))
      const headers = new Headers()
      headers.append('Set-Cookie', await sessionCookie(request).serialize(session.auth_token, { maxAge: seconds }))
      headers.append('Set-Cookie', await nonces.serialize('', { maxAge: 0 }))
      return redirect('/', { headers })
    }
    const nonce = randomToken(32)
    const nonceHash = await sha256Hex(nonce)
    const bound = await apiData(api.mas.session.handover.bind.$post({ json: { code: code.output, nonce_hash: nonceHash } }))
    const confirm = new URL(bound.confirm_url)
    confirm.searchParams.set('code', code.output)
    confirm.searchParams.set('nonce_hash', nonceHash)
    return redirect(confirm.toString(), { headers: { 'Set-Cookie': await nonces.serialize(nonce) } })
  } catch (err) {
    if (err instanceof RealmApiError && err.status < 500) throw failed(err.status)
    throw err
  }
}

export default function Handover() {
  return null
}

/** A code that is unknown, used, expired or not this browser's: the switch cannot finish here; signing in again is the way on. */
export function ErrorBoundary() {
  return <HandoverFailed />
}
