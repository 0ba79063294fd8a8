import type { AppLoadContext } from '@remix-run/cloudflare'
import type { RealmApi } from './api.server'
import { apiFor, getToken } from './auth.server'
import { mobileApi, mobileToken } from './mobile-session.server'
import { getRealmContext } from './realm.server'

/**
 * The realm API as the visitor of the public persona chat: the console session when the browser has one, else the
 * mobile-web session, else anonymous (a guest: public personas only). Unlike the participant view's, an anonymous
 * visitor is not sent to sign in: whether this persona needs it is the API's answer (401 `login_required`).
 */
export async function visitorApi(request: Request, context: AppLoadContext): Promise<{ api: RealmApi; session: 'console' | 'mobile' | null }> {
  const realm = await getRealmContext(request, context)
  if (await getToken(request)) return { api: await apiFor(request, context, realm), session: 'console' }
  const token = await mobileToken(request)
  if (token) return { api: mobileApi(request, context, realm, token), session: 'mobile' }
  return { api: mobileApi(request, context, realm, null), session: null }
}
