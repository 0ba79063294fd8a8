import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import type { LoginResult } from '~/components/signin/login-screen'
import type { DeviceSession } from '#shared/schemas/auth'
import { RealmApiError, apiData, realmApi, type RealmApi } from './api.server'
import { safeRedirect } from './auth.server'
import { realmCookie } from '#shared/cookies.server'
import { sessionCookie } from './cookies.server'
import type { RealmContext } from './realm.server'

/** Sign-in methods of the /login action; `token` is the token-login link (query string). */
export type SigninMethod = 'device' | 'employee' | 'employee_token' | 'google' | 'token'

/**
 * Maps a failed sign-in call to the messages of seed 000 §8. A captcha demanded by the server (realm setting or
 * repeated failures) is flagged so the form shows the captcha from then on.
 */
export function signinFailure(err: unknown, method: SigninMethod): { result: LoginResult; status: number } {
  if (!(err instanceof RealmApiError)) throw err
  const status = err.status
  const captchaRequired = err.has('captcha_required') || err.has('captcha_invalid') ? true : undefined
  const result = (formError: string, formErrorValues?: Record<string, string>): { result: LoginResult; status: number } => ({
    result: { formError, formErrorValues, captchaRequired },
    status,
  })
  if (err.has('throttled')) {
    const value = err.errors.find((e) => e.cause === 'throttled')?.value as { retry_after?: number } | null
    return result('login.msg.error.throttled', { seconds: String(value?.retry_after ?? 60) })
  }
  if (err.has('role_not_allowed')) return result('login.msg.error.role_not_allowed')
  if (method === 'token') return result('login.msg.error.credentials.token')
  if (err.has('captcha_invalid')) return result('captcha.error.expired')
  if (err.has('credentials')) return result('login.msg.error.credentials')
  if (err.has('token_invalid') || err.has('token_expired') || err.has('token_used')) return result('login.msg.error.credentials.token')
  if (err.has('captcha_required')) return result('captcha.error.required')
  if (err.has('not_allowed')) return result('login.msg.error.google.not_allowed')
  if (err.has('email_missing')) return result('login.msg.error.google.email')
  if (err.has('invalid_token')) return result('login.msg.error.google.invalid')
  if (err.has('provider_not_allowed')) return result('login.msg.error.provider_not_allowed')
  if (err.has('provider_unavailable')) return result('login.msg.error.provider_unavailable')
  if (err.has('mobile')) return result('login.msg.error.mobile')
  if (err.has('network')) return result('error.http.network')
  if (status === 401) return result('login.msg.error.401')
  if (status === 403) return result('login.msg.error.403')
  if (status === 400) return result('login.msg.error.400', { details: err.errors.map((e) => `${e.field}: ${e.cause}`).join(', ') })
  return result('login.msg.error.generic', { message: err.errors[0]?.message ?? err.message })
}

/**
 * After the API answered a session: the dashboard-access check (a refused session is revoked at once), then the
 * httpOnly cookie living exactly as long as the session, the chosen realm on multi-realm hosts, and the redirect.
 */
export async function completeSignin(
  request: Request,
  context: AppLoadContext,
  realm: RealmContext & { code: string },
  session: DeviceSession,
  redirectTo: FormDataEntryValue | null,
): Promise<{ result: LoginResult; status: number }> {
  const api: RealmApi = realmApi(request, context, {
    endpoint: realm.config?.api_endpoint,
    realm: realm.multirealm ? realm.code : undefined,
    token: session.auth_token,
  })
  const user = await apiData(api.mas.session.$get())
  if (!user.permissions.dashboard_dashboard_access) {
    await api.device.$delete()
    return { result: { formError: 'login.msg.error.403' }, status: 403 }
  }
  const headers = new Headers()
  const seconds = Math.max(60, Math.floor((Date.parse(session.expires_at) - Date.now()) / 1000))
  headers.append('Set-Cookie', await sessionCookie(request).serialize(session.auth_token, { maxAge: seconds }))
  if (realm.multirealm) headers.append('Set-Cookie', await realmCookie(request).serialize(realm.code))
  throw redirect(safeRedirect(redirectTo), { headers })
}
