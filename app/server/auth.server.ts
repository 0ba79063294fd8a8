import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { can, type Access } from '#shared/access'
import { routeById } from '#shared/manifest'
import type { PermissionMap } from '#shared/schemas/permission'
import { RealmApiError, apiData, realmApi, type RealmApi } from './api.server'
import { sessionToken } from '#shared/cookies.server'
import { sessionCookie } from './cookies.server'
import { oncePerRequest } from './memo.server'
import { getRealmContext, type RealmContext } from './realm.server'

/** The signed-in staff member, as GET /api/mas/session answers (seed 000 §3 auth state). */
export interface SessionUser {
  realm: string
  /** The realm whose roles the user holds (`realm` differs after a realm switch). */
  home_realm: string
  nick: string
  name: string
  avatar_url: string
  origin_realm: string
  role: string
  roles: string[]
  permissions: PermissionMap
  server_ts: string
}

/**
 * What the console shell shows of the signed-in user. The page gets this, not the session's permission map (about
 * 250 keys): the server decides what the shell and the page offer, and the map stays out of every page's data.
 */
export interface ShellUser {
  nick: string
  name: string
  avatar_url: string
  origin_realm: string
  /** Holds mas_realm_list or mas_realm_list_all: the top bar offers the realm switch. */
  canSwitchRealm: boolean
  /** Holds mas_user_edit: the account menu offers the profile. */
  canEditProfile: boolean
}

export function shellUser(user: SessionUser): ShellUser {
  return {
    nick: user.nick,
    name: user.name,
    avatar_url: user.avatar_url,
    origin_realm: user.origin_realm,
    canSwitchRealm: can(user.permissions, null, { any: ['mas_realm_list', 'mas_realm_list_all'] }),
    canEditProfile: user.permissions.mas_user_edit === true,
  }
}

/** Why the sign-in screen is shown instead of a page; the boundary reads it from the 401/403 data. */
export interface SigninRequired {
  reason: 'signin' | 'session_timeout' | 'dashboard_access' | 'realm'
}

export function getToken(request: Request): Promise<string | null> {
  return sessionToken(request)
}

/** The realm API for this request's realm, authenticated with the session token when there is one. */
export async function apiFor(request: Request, context: AppLoadContext, realm?: RealmContext, known?: { token: string }): Promise<RealmApi> {
  const r = realm ?? (await getRealmContext(request, context))
  const token = known ? known.token : await getToken(request)
  return realmApi(request, context, {
    endpoint: r.config?.api_endpoint,
    token: token ?? undefined,
    realm: r.multirealm ? (r.code ?? undefined) : undefined,
  })
}

async function clearSession(request: Request): Promise<string> {
  return sessionCookie(request).serialize('', { maxAge: 0 })
}

/** Thrown as a Response so document routes (boundary) and resource routes (JSON) both handle it. */
function signinRequired(reason: SigninRequired['reason'], status: 401 | 403, headers?: HeadersInit): never {
  const h = new Headers(headers)
  h.set('content-type', 'application/json')
  throw new Response(JSON.stringify({ reason } satisfies SigninRequired), { status, headers: h })
}

type Signed = { user: SessionUser; realm: RealmContext; api: RealmApi }
const once = oncePerRequest<Signed>()

/**
 * The signed-in user with dashboard access, or a thrown 401/403 that the console boundary renders as the sign-in
 * screen in place of the page (the URL stays, so the requested path is restored after sign-in).
 * Loaders of one request share the answer; permissions are still read fresh on every request.
 */
export function requireUser(request: Request, context: AppLoadContext): Promise<Signed> {
  return once(context, () => loadUser(request, context))
}

async function loadUser(request: Request, context: AppLoadContext): Promise<Signed> {
  const realm = await getRealmContext(request, context)
  if (!realm.code) signinRequired('realm', 401)
  const token = await getToken(request)
  if (!token) signinRequired('signin', 401)
  // The token just read (reading the cookie again decodes it again, character by character).
  const api = await apiFor(request, context, realm, { token })
  let user: SessionUser
  try {
    user = await apiData(api.mas.session.$get())
  } catch (err) {
    if (err instanceof RealmApiError && err.status === 401) {
      signinRequired(err.has('session_timeout') ? 'session_timeout' : 'signin', 401, { 'Set-Cookie': await clearSession(request) })
    }
    throw err
  }
  if (!user.permissions.dashboard_dashboard_access) {
    await api.device.$delete().catch(() => undefined)
    signinRequired('dashboard_access', 403, { 'Set-Cookie': await clearSession(request) })
  }
  return { user, realm, api }
}

/**
 * Like requireUser, and sends users lacking the requirement (permissions or realm flags) to /notfound (seed 000
 * §2.2), saying which page was refused (`path`) and the console page they came from (`from`, from the Referer), so
 * the page can name what is missing and link back.
 */
export async function requireAccess(request: Request, context: AppLoadContext, access: Access) {
  const found = await requireUser(request, context)
  if (!can(found.user.permissions, found.realm.config, access)) throw redirect(deniedLocation(request))
  return found
}

/** `/notfound?path=<refused path>&from=<same-origin page it was asked from>`. */
export function deniedLocation(request: Request): string {
  const url = new URL(request.url)
  const path = url.pathname.replace(/\.data$/, '')
  const query = new URLSearchParams({ path })
  const referer = request.headers.get('referer')
  if (referer) {
    try {
      const from = new URL(referer)
      if (from.origin === url.origin && from.pathname !== path && !from.pathname.startsWith('/notfound')) query.set('from', from.pathname + from.search)
    } catch {
      // An unreadable Referer names no page to go back to.
    }
  }
  return `/notfound?${query}`
}

/** The guard of a manifest route (first line of its loaders and actions). */
export function requireRoute(request: Request, context: AppLoadContext, routeId: string) {
  return requireAccess(request, context, routeById(routeId).access)
}

/** A same-site path to return to after sign-in; anything else falls back to `/`. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = '/'): string {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback
  return to
}
