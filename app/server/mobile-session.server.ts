import { createCookie, data, redirect, type ActionFunctionArgs, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { MobileSigninAnswer } from '~/components/signin/mobile-signin'
import { UsernameSignin, fieldErrors, type DeviceSession } from '#shared/schemas/auth'
import { realmCookie, secureFor } from '#shared/cookies.server'
import { RealmApiError, apiData, orNull, realmApi, type RealmApi } from './api.server'
import { getToken, requireUser } from './auth.server'
import { requirePublicRoute } from './public-route.server'
import { getRealmContext, type RealmContext } from './realm.server'
import { signinFailure } from './signin.server'

/**
 * The mobile-web session (issue 13, `/mobile/…` pages and the participant view `/live/{id}`): students sign in there
 * with the API's `POST /device` (platform `mobile`), and the token lives in its own httpOnly cookie, apart from the
 * console's, so the console's dashboard-access check never ends a student's mobile session and a console session
 * never opens a mobile page as someone else. SameSite=Lax; `Secure` and `__Host-` outside localhost.
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

/** The Set-Cookie header that ends the mobile-web session in the browser. */
export function clearMobileCookie(request: Request): Promise<string> {
  return mobileCookie(request).serialize('', { maxAge: 0 })
}

/**
 * Who the mobile-web session is: `user` with the API as them, `none` without a session, `expired` when the cookie's
 * session is over (the page clears the cookie with `clearMobileCookie`).
 */
export async function mobileUser(
  request: Request,
  context: AppLoadContext,
  realm: RealmContext,
): Promise<{ state: 'none' } | { state: 'expired' } | { state: 'user'; api: RealmApi; me: { name: string; nick: string } }> {
  const token = await mobileToken(request)
  if (!token) return { state: 'none' }
  const api = mobileApi(request, context, realm, token)
  const me = await orNull(apiData(api.mas.session.$get()), [401])
  return me ? { state: 'user', api, me: { name: me.name, nick: me.nick } } : { state: 'expired' }
}

/**
 * A mobile page's loader answer without a session: the page's `base` data in its sign-in state, not stored by caches,
 * clearing the cookie of an expired session.
 */
export async function mobileSigninState<B extends object>(request: Request, base: B, expired: boolean) {
  const noStore = { 'Cache-Control': 'no-store' }
  return data({ ...base, state: 'signin' as const }, { headers: expired ? { ...noStore, 'Set-Cookie': await clearMobileCookie(request) } : noStore })
}

/**
 * A public mobile page of one record published to the student (a lesson, a survey): the sign-in state without a
 * session, "missing" (404, told in words) when the API does not find it for them, else `base` with what `load` read.
 */
export async function mobileRecordPage<B extends object, T extends object>(
  request: Request,
  context: AppLoadContext,
  realm: RealmContext,
  base: B,
  load: (api: RealmApi) => Promise<T>,
) {
  const session = await mobileUser(request, context, realm)
  if (session.state !== 'user') return mobileSigninState(request, base, session.state === 'expired')
  try {
    return data({ ...base, ...(await load(session.api)) }, { headers: { 'Cache-Control': 'no-store' } })
  } catch (err) {
    if (err instanceof RealmApiError && (err.status === 404 || err.status === 400)) return data({ ...base, state: 'missing' as const }, { status: 404 })
    throw err
  }
}

/**
 * The mobile-web sign-in action (the realm's username sign-in, as the mobile app does it: platform `mobile`): a
 * refusal is answered to the form with its message (400 invalid fields, the API's status otherwise); a session sets
 * the mobile cookie (living as long as the session; the realm on multi-realm hosts) and redirects to `home`.
 */
export async function mobileSignin(request: Request, context: AppLoadContext, realm: RealmContext & { code: string }, home: string) {
  const form = await request.formData()
  const parsed = v.safeParse(UsernameSignin, { nick: form.get('nick') ?? '', password: form.get('password') ?? '' })
  if (!parsed.success) return data<MobileSigninAnswer>({ formError: null, fieldErrors: fieldErrors(parsed.issues) }, { status: 400 })
  let session: DeviceSession
  try {
    session = await apiData(mobileApi(request, context, realm, null).device.$post({ json: { realm: realm.code, ...parsed.output, platform: 'mobile' } }))
  } catch (err) {
    // A sign-in route turns the API's refusal into its own message (as /login does).
    const { result, status } = signinFailure(err, 'device')
    const formError = result.captchaRequired
      ? 'mobile.feed.captcha'
      : result.formError === 'login.msg.error.credentials'
        ? 'mobile.feed.credentials'
        : result.formError
    return data<MobileSigninAnswer>({ formError: formError ?? 'mobile.feed.signin_failed', fieldErrors: {} }, { status })
  }
  const headers = new Headers()
  const seconds = Math.max(60, Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000))
  headers.append('Set-Cookie', await mobileCookie(request).serialize(session.auth_token, { maxAge: seconds }))
  if (realm.multirealm) headers.append('Set-Cookie', await realmCookie(request).serialize(realm.code))
  throw redirect(home, { headers })
}

const SessionIntent = v.picklist(['signin', 'signout'])

/**
 * The action of a public page with the mobile-web sign-in: `?intent=signin` signs in (username and password),
 * `?intent=signout` ends that session; either leads to `home` (default: the page itself), the sign-out to `signedOut`
 * when given. 404 outside a realm, 400 for another intent.
 */
export async function mobileSessionAction({ request, context }: ActionFunctionArgs, home = new URL(request.url).pathname, signedOut = home) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const intent = v.safeParse(SessionIntent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  if (intent.output === 'signout') return mobileSignout(request, context, realm, signedOut)
  return mobileSignin(request, context, { ...realm, code: realm.code }, home)
}

/** Ends the mobile-web session (API and cookie) and redirects to `home`. */
export async function mobileSignout(request: Request, context: AppLoadContext, realm: RealmContext, home: string): Promise<never> {
  const token = await mobileToken(request)
  if (token) await orNull(apiData(mobileApi(request, context, realm, token).device.$delete()), [401])
  throw redirect(home, { headers: { 'Set-Cookie': await clearMobileCookie(request) } })
}

/**
 * The realm API as whoever joins a channel from the browser (`/party/ticket`, the participant view): the console
 * session when the browser has one (checked as every console request is), else the mobile-web session, else the
 * console's 401 "sign in".
 */
export async function participantApi(request: Request, context: AppLoadContext): Promise<RealmApi> {
  if (await getToken(request)) return (await requireUser(request, context)).api
  const token = await mobileToken(request)
  if (!token) return (await requireUser(request, context)).api
  return mobileApi(request, context, await getRealmContext(request, context), token)
}

/**
 * The realm API as the mobile-web student (the apply screen's uploads and transcription): their session, or the
 * envelope's 401 for a resource route to answer when the mobile session is missing.
 */
export async function studentApi(request: Request, context: AppLoadContext): Promise<RealmApi> {
  const token = await mobileToken(request)
  if (!token)
    throw Response.json({ errors: [{ field: 'x-api-key', cause: 'session_timeout', value: null, message: 'errors.session_timeout' }] }, { status: 401 })
  return mobileApi(request, context, await getRealmContext(request, context), token)
}
