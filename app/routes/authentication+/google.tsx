import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { randomToken } from '../../../worker/lib/crypto'
import { discover, OidcError } from '../../../worker/lib/oidc'
import { PopupResult } from '~/components/signin/popup-result'
import { googleNonceCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'login.google.button' }

/**
 * Start of Google sign-in, opened in a popup by the sign-in screen: remembers a fresh nonce in a short-lived
 * httpOnly cookie and sends the popup to the issuer's authorization endpoint (implicit flow, `id_token` in the
 * fragment of the callback). When sign-in with Google is not possible the popup reports the provider unavailable.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url)
  const state = url.searchParams.get('state') ?? ''
  const realm = await getRealmContext(request, context)
  const config = realm.config
  const unavailable = { state: /^[\w-]{16,64}$/.test(state) ? state : '', error: 'unavailable' }
  if (!unavailable.state || !config || !config.allowed_signin.includes('google') || !config.google_client_id) return unavailable
  let endpoint: string
  try {
    endpoint = (await discover(context.cloudflare.env.GOOGLE_ISSUER)).authorization_endpoint
  } catch (err) {
    if (err instanceof OidcError) return unavailable
    throw err
  }
  const nonce = randomToken(24)
  const target = new URL(endpoint)
  target.search = new URLSearchParams({
    client_id: config.google_client_id,
    redirect_uri: `${url.origin}/authentication/google/callback`,
    response_type: 'id_token',
    scope: 'openid email profile',
    nonce,
    state,
    prompt: 'select_account',
  }).toString()
  throw redirect(target.toString(), { headers: { 'Set-Cookie': await googleNonceCookie(request).serialize(nonce) } })
}

export default function GoogleStart() {
  const data = useLoaderData<typeof loader>()
  return <PopupResult message={{ type: 'google-signin', state: data.state, error: data.error }} />
}
