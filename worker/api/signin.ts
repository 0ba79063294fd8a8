import * as v from 'valibot'
import { userHoldsPermission } from '../db/roles'
import { SessionKey } from '#shared/schemas/captcha'
import type { ErrorItem } from '#shared/schemas/error'
import { consumeCaptchaToken, realmCaptchaType } from '../db/captcha'
import { getRealmRow, realmConfig } from '../db/realms'
import { consoleRoleAllowed, createSession } from '../db/sessions'
import { type Bucket, clearAccountFailures, pairKey, recordFailure, throttleState } from '../db/throttle'
import type { SigninUser } from '../db/users'
import { sha256Hex } from '../lib/crypto'
import { ApiError, apiError } from '../lib/errors'
import { type Ctx, clientAddress, origin } from './context'

/**
 * What every sign-in method shares: the realm check, throttling of repeated failures, the captcha gate and the
 * session answer. A method calls `beginSignin`, checks its credentials, then `signinFailed` or `issueSession`.
 */
export type RealmRow = NonNullable<Awaited<ReturnType<typeof getRealmRow>>>

export interface SigninAttempt {
  realm: RealmRow
  code: string
  buckets: Bucket[]
  captchaDemanded: boolean
}

export const PLATFORMS = ['dashboard', 'mobile', 'web'] as const
export const Platform = v.optional(v.picklist(PLATFORMS, 'validation.picklist'), 'dashboard')

/** The realm a sign-in addresses; on a realm host only that realm is accepted. */
export async function signinRealm(c: Ctx, code: string): Promise<RealmRow> {
  const hostRealm = c.get('hostRealm')
  if (hostRealm && hostRealm !== code) throw apiError(400, 'realm', `This host serves realm ${hostRealm}.`, 'realm', code)
  const realm = await getRealmRow(c.env.DB, code)
  if (!realm) throw apiError(404, 'not_found', `Realm ${code} was not found.`, 'realm', code)
  return realm
}

/**
 * Opens a sign-in attempt for `account` (null when the method names no account, e.g. a token). A solved captcha
 * is header `x-captcha-token` with the visitor's `x-session-key`; it is spent whenever one is sent. In order:
 * - an address over the flood ceiling is refused (429 `throttled`, `value.retry_after` in seconds), captcha or not;
 * - when the realm enables captcha or repeated failures demand one, an attempt without a valid token is refused
 *   (400 `captcha_required` or `captcha_invalid`);
 * - an attempt without a solved captcha waits out the (account, address) pair's delay (429 `throttled`, with a
 *   `captcha_required` item: solving one skips the wait). A solved captcha is never delayed, so the right password
 *   with a captcha always signs in.
 */
export async function beginSignin(c: Ctx, realm: RealmRow, account: string | null): Promise<SigninAttempt> {
  const code = realm.code
  const address = clientAddress(c)
  const buckets: Bucket[] = [{ kind: 'client', key: await sha256Hex(address) }]
  if (account) buckets.push({ kind: 'account', key: account.toLowerCase() }, { kind: 'pair', key: await pairKey(account, address) })
  const state = await throttleState(c.env.DB, code, buckets)
  const field = account ? 'nick' : 'token'
  if (state.hardRetryAfterMs > 0) {
    throw apiError(429, 'throttled', 'Too many failed attempts from this address; wait before trying again.', field, {
      retry_after: Math.ceil(state.hardRetryAfterMs / 1000),
    })
  }
  const captchaDemanded = realm.captcha_enabled === 1 || state.captchaRequired
  const token = c.req.header('x-captcha-token')
  let captchaSolved = false
  if (token) {
    const key = v.safeParse(SessionKey, c.req.header('x-session-key'))
    captchaSolved = key.success && (await consumeCaptchaToken(c.env.DB, code, token, key.output, realmCaptchaType(realm)))
    if (!captchaSolved && captchaDemanded) throw apiError(400, 'captcha_invalid', 'The captcha token is not valid; solve a new captcha.', 'x-captcha-token')
  } else if (captchaDemanded) {
    throw apiError(400, 'captcha_required', 'A solved captcha is required.', 'x-captcha-token')
  }
  if (!captchaSolved && state.retryAfterMs > 0) {
    throw new ApiError(429, [
      {
        field,
        cause: 'throttled',
        value: { retry_after: Math.ceil(state.retryAfterMs / 1000) },
        message: 'Too many failed attempts; wait before trying again.',
      },
      { field: 'x-captcha-token', cause: 'captcha_required', value: null, message: 'A solved captcha skips the wait.' },
    ])
  }
  return { realm, code, buckets, captchaDemanded: captchaDemanded || captchaSolved }
}

/** An attempt without throttling or captcha, for methods whose credential cannot be guessed (identity provider tokens). */
export function providerAttempt(realm: RealmRow): SigninAttempt {
  return { realm, code: realm.code, buckets: [], captchaDemanded: false }
}

/** Refuses a method the realm does not list in `allowed_signin`. */
export function requireMethod(realm: RealmRow, method: string): void {
  let allowed: unknown
  try {
    allowed = JSON.parse(String(realm.allowed_signin))
  } catch {
    allowed = []
  }
  if (!Array.isArray(allowed) || !allowed.includes(method)) {
    throw apiError(403, 'provider_not_allowed', `Sign-in with ${method} is not allowed in realm ${realm.code}.`, 'provider', method)
  }
}

/**
 * Records a failed attempt and answers the method's error; when this failure makes a captcha necessary for the
 * next attempt, the envelope says so with a second item (cause `captcha_required`).
 */
export async function signinFailed(c: Ctx, attempt: SigninAttempt, error: ApiError): Promise<never> {
  if (attempt.buckets.length) await recordFailure(c.env.DB, attempt.code, attempt.buckets)
  const errors: ErrorItem[] = [...error.errors]
  if (attempt.buckets.length && !attempt.captchaDemanded && (await throttleState(c.env.DB, attempt.code, attempt.buckets)).captchaRequired) {
    errors.push({ field: 'x-captcha-token', cause: 'captcha_required', value: null, message: 'A solved captcha is required for the next attempt.' })
  }
  throw new ApiError(error.status, errors)
}

/** Ends a successful attempt: forgets the account's failures and answers a new session (seed 000 §7). */
export async function issueSession(c: Ctx, attempt: SigninAttempt, user: SigninUser, platform: string, account: string | null = null) {
  // The console (platform dashboard) admits only the roles the realm lists in allowed_roles, when it lists any.
  if (platform === 'dashboard') {
    // Only the platform operator's permission matters here (it admits them to any realm's console).
    const permissions = new Set((await userHoldsPermission(c.env.DB, attempt.code, user.nick, 'mas_realm_list_all')) ? ['mas_realm_list_all'] : [])
    if (!consoleRoleAllowed(attempt.realm.allowed_roles, user.roles, permissions)) {
      throw apiError(403, 'role_not_allowed', 'login.msg.error.role_not_allowed', 'nick', user.nick)
    }
  }
  if (account) await clearAccountFailures(c.env.DB, attempt.code, account.toLowerCase(), attempt.buckets.find((b) => b.kind === 'pair')?.key)
  const session = await createSession(c.env.DB, attempt.code, user.nick, { platform, userAgent: c.req.header('user-agent') })
  const config = realmConfig(attempt.realm, origin(c), !c.get('hostRealm'))
  return {
    device_id: session.deviceId,
    auth_token: session.token,
    realm: attempt.code,
    nick: user.nick,
    name: user.name,
    avatar_url: user.avatar_url,
    files_base_url: config.files_base_url,
    role: user.roles[0] ?? '',
    roles: user.roles,
    origin_realm: user.origin_realm,
    expires_at: session.expiresAt,
  }
}
