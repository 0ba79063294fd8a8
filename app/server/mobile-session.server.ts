import { createCookie, type AppLoadContext } from '@remix-run/cloudflare'
import { secureFor } from '#shared/cookies.server'
import { realmApi } from './api.server'
import type { RealmContext } from './realm.server'

/**
 * The mobile-web session (issue 13, `/mobile/…` pages): students sign in there with the API's `POST /device`
 * (platform `mobile`), and the token lives in its own httpOnly cookie, apart from the console's, so the console's
 * dashboard-access check never ends a student's mobile session and a console session never opens a mobile page as
 * someone else. SameSite=Lax; `Secure` and `__Host-` outside localhost.
 */
export function mobileCookie(request: Request) {
  const secure = secureFor(request)
  return createCookie(secure ? '__Host-dash_mobile' : 'dash_mobile', { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: 60 * 60 * 12 })
}

export async function mobileToken(request: Request): Promise<string | null> {
  const value = (await mobileCookie(request).parse(request.headers.get('cookie'))) as unknown
  return typeof value === 'string' && value.length > 0 ? value : null
}

/** The realm API as the mobile-web session (or anonymous without one). */
export function mobileApi(request: Request, context: AppLoadContext, realm: RealmContext, token: string | null) {
  return realmApi(request, context, {
    endpoint: realm.config?.api_endpoint,
    token: token ?? undefined,
    realm: realm.multirealm ? (realm.code ?? undefined) : undefined,
  })
}
