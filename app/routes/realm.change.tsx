import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { can } from '#shared/access'
import { RealmCode } from '#shared/schemas/common'
import type { RealmConfig } from '#shared/schemas/realm'
import { apiData, RealmApiError } from '~/server/api.server'
import { requireUser } from '~/server/auth.server'
import { realmCookie } from '#shared/cookies.server'
import { handoverStateCookie, sessionCookie } from '~/server/cookies.server'
import { randomToken, sha256Hex } from '../../worker/lib/crypto'

/** Who may switch realms (seed 000 §2.1: the icon shows for mas_realm_list or mas_realm_list_all). */
export const REALM_SWITCH_ACCESS = { any: ['mas_realm_list', 'mas_realm_list_all'] } as const

export interface SwitchableRealm {
  code: string
  name: string
  canonical_name: string
  parent_code: string | null
}

export type RealmSwitchResult = { ok: true; realm: string; name: string; url: string } | { ok: false; error: string }

interface ChangeAnswer {
  auth_token: string
  expires_at: string
  realm: string
  config: RealmConfig
  home_url: string | null
  handover_code: string | null
}

export type RealmSwitchList = { current: string; items: SwitchableRealm[]; error?: undefined } | { error: string; current?: undefined; items?: undefined }

/**
 * The signed-in user for the dialog's calls. A lost session is answered as data, not thrown: the dialog then
 * reloads the page, whose guard shows the sign-in screen with the reason (e.g. the session-expired warning).
 */
async function dialogUser(request: Request, context: LoaderFunctionArgs['context']) {
  try {
    return await requireUser(request, context)
  } catch (err) {
    if (err instanceof Response && (err.status === 401 || err.status === 403)) return null
    throw err
  }
}

const listReply = (body: RealmSwitchList, init: ResponseInit = {}) => Response.json(body, init)

/** GET /realm/change: the realms the user may switch to (the realm list, limit 1000 as the specification's console asks). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const found = await dialogUser(request, context)
  if (!found) return listReply({ error: 'session' }, { status: 401 })
  if (!can(found.user.permissions, null, REALM_SWITCH_ACCESS)) return listReply({ error: 'errors.forbidden' }, { status: 403 })
  try {
    const page = await apiData(found.api.mas.realm.$get({ query: { limit: 1000, offset: 0, order: 'name' } }))
    return listReply({ current: found.user.realm, items: page.items })
  } catch (err) {
    if (err instanceof RealmApiError) return listReply({ error: err.status === 401 ? 'session' : 'realm.switch.list_failed' }, { status: err.status })
    throw err
  }
}

/**
 * POST /realm/change: switches to `realm` (PUT mas/realm/{current}/change). On a multi-realm host the new token and
 * the chosen realm go into this host's cookies; from a realm's own host the browser goes on to the target's host
 * with a one-time handover code, bound to this browser by the state cookie set here (see
 * authentication.handover.tsx for the legs that follow). The dialog waits 2000 ms, then opens `url`.
 * Called with fetch() rather than a fetcher: the old session is revoked, so the page must not revalidate with it.
 */
const reply = (body: RealmSwitchResult, init: ResponseInit = {}) => Response.json(body, init)

export async function action({ request, context }: ActionFunctionArgs) {
  const found = await dialogUser(request, context)
  if (!found) return reply({ ok: false, error: 'session' }, { status: 401 })
  const { user, api, realm } = found
  if (!can(user.permissions, null, REALM_SWITCH_ACCESS)) return reply({ ok: false, error: 'errors.forbidden' }, { status: 403 })
  const form = await request.formData()
  const target = v.safeParse(RealmCode, form.get('realm') ?? '')
  if (!target.success) return reply({ ok: false, error: 'validation.realm_code' }, { status: 400 })
  // From a realm's own host the session may move to another host: that handover is bound to this browser by a
  // random state kept in a cookie here, of which the API stores only the hash.
  const state = realm.multirealm ? null : randomToken(32)
  let answer: ChangeAnswer
  try {
    answer = await apiData(
      api.mas.realm[':code'].change.$put({
        param: { code: user.realm },
        json: {
          leaf_realm: target.output,
          ...(state ? { handover_state: await sha256Hex(state) } : {}),
        },
      }),
    )
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    const error =
      err.status === 401 ? 'session' : err.has('realm_host') ? 'realm.switch.no_host' : err.status === 403 ? 'realm.switch.forbidden' : 'realm.switch.failed'
    return reply({ ok: false, error }, { status: err.status })
  }
  if (state && answer.home_url && answer.handover_code) {
    const url = new URL('authentication/handover', answer.home_url)
    url.searchParams.set('code', answer.handover_code)
    const headers = new Headers()
    headers.append('Set-Cookie', await sessionCookie(request).serialize('', { maxAge: 0 }))
    headers.append('Set-Cookie', await handoverStateCookie(request).serialize(state))
    return reply({ ok: true, realm: answer.realm, name: answer.config.name, url: url.toString() }, { headers })
  }
  const headers = new Headers()
  const seconds = Math.max(60, Math.floor((Date.parse(answer.expires_at) - Date.now()) / 1000))
  headers.append('Set-Cookie', await sessionCookie(request).serialize(answer.auth_token, { maxAge: seconds }))
  if (realm.multirealm) headers.append('Set-Cookie', await realmCookie(request).serialize(answer.realm))
  return reply({ ok: true, realm: answer.realm, name: answer.config.name, url: '/' }, { headers })
}
