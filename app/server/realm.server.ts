import type { AppLoadContext } from '@remix-run/cloudflare'
import type { RealmConfig } from '#shared/schemas/realm'
import { apiData, orNull, realmApi } from './api.server'
import { realmCookie } from '#shared/cookies.server'
import { oncePerRequest } from './memo.server'

export interface RealmContext {
  /** The realm in use, null while a multi-realm host has none chosen. */
  code: string | null
  /** True on hosts not bound to one realm (the chooser is available). */
  multirealm: boolean
  config: RealmConfig | null
}

const once = oncePerRequest<RealmContext>()

/** The realm of this request: the host's realm, else the one chosen on a multi-realm host (cookie). */
export function getRealmContext(request: Request, context: AppLoadContext): Promise<RealmContext> {
  return once(context, () => resolve(request, context))
}

/**
 * On a multi-realm host a link may name its realm (`?realm=` with a token-login `token`, or on /authentication/
 * pages such as the reset link, the deep-link page and the mobile-web pages): it is used for that page without being remembered; signing in remembers it.
 */
export function linkedRealm(request: Request): string | null {
  const url = new URL(request.url)
  const realm = url.searchParams.get('realm')
  if (!realm || !/^[a-z0-9][a-z0-9_-]{0,9}$/.test(realm)) return null
  // The conference deep link and the mobile-web pages name their realm the same way (issue 13).
  return url.searchParams.has('token') || ['/authentication/', '/deeplink', '/mobile/'].some((p) => url.pathname.startsWith(p)) ? realm : null
}

async function resolve(request: Request, context: AppLoadContext): Promise<RealmContext> {
  const multirealm = context.hostRealm === null
  const chosen = multirealm ? (linkedRealm(request) ?? ((await realmCookie(request).parse(request.headers.get('cookie'))) as string | null)) : null
  const code = context.hostRealm ?? chosen
  if (!code) return { code: null, multirealm, config: null }
  const config = await orNull(apiData(realmApi(request, context).mas.realm[':code'].config.$get({ param: { code } })))
  return config ? { code, multirealm, config } : { code: null, multirealm, config: null }
}
