import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData, useRouteLoaderData } from '@remix-run/react'
import * as v from 'valibot'
import { LoginScreen, type LoginResult } from '~/components/login-screen'
import { fieldErrors, UsernameSignin, type DeviceSession } from '~/schemas/auth'
import type { RootData } from '~/root'
import { RealmApiError, realmApi } from '~/server/api.server'
import { getToken, safeRedirect, type SessionUser } from '~/server/auth.server'
import { sessionCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'login.title' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
  const realm = await getRealmContext(request, context)
  if (realm.config && (await getToken(request))) throw redirect(redirectTo)
  return { redirectTo }
}

/** Maps a failed sign-in call to the messages of seed 000 §8. */
function signinFailure(err: unknown): { result: LoginResult; status: number } {
  if (err instanceof RealmApiError) {
    if (err.status === 401 && err.has('credentials')) return { result: { formError: 'login.msg.error.credentials' }, status: 401 }
    if (err.status === 401) return { result: { formError: 'login.msg.error.401' }, status: 401 }
    if (err.status === 403) return { result: { formError: 'login.msg.error.403' }, status: 403 }
    if (err.status === 400) {
      const details = err.errors.map((e) => `${e.field}: ${e.cause}`).join(', ')
      return { result: { formError: 'login.msg.error.400', formErrorValues: { details } }, status: 400 }
    }
    if (err.has('network')) return { result: { formError: 'error.http.network' }, status: 503 }
    return { result: { formError: 'login.msg.error.generic', formErrorValues: { message: err.message } }, status: err.status }
  }
  throw err
}

/** Username sign-in: POST /api/device, then the dashboard-access check; the token goes into the httpOnly cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) return data<LoginResult>({ formError: 'realm.error.load' }, { status: 400 })
  const form = await request.formData()
  const parsed = v.safeParse(UsernameSignin, { nick: form.get('nick') ?? '', password: form.get('password') ?? '' })
  if (!parsed.success) return data<LoginResult>({ fieldErrors: fieldErrors(parsed.issues) }, { status: 400 })

  const opts = { endpoint: realm.config.api_endpoint, realm: realm.multirealm ? realm.code : undefined }
  let session: DeviceSession
  try {
    session = await realmApi(request, context, opts).post<DeviceSession>('device', { realm: realm.code, ...parsed.output, platform: 'dashboard' })
  } catch (err) {
    const { result, status } = signinFailure(err)
    return data(result, { status })
  }
  const api = realmApi(request, context, { ...opts, token: session.auth_token })
  const user = await api.get<SessionUser>('mas/session')
  if (!user.permissions.dashboard_dashboard_access) {
    await api.delete('device')
    return data<LoginResult>({ formError: 'login.msg.error.403' }, { status: 403 })
  }
  throw redirect(safeRedirect(form.get('redirectTo')), {
    headers: { 'Set-Cookie': await sessionCookie(request).serialize(session.auth_token) },
  })
}

export default function LoginRoute() {
  const { redirectTo } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const root = useRouteLoaderData<RootData>('root')
  if (!root?.realm) return null
  return <LoginScreen config={root.realm} multirealm={root.multirealm} locale={root.locale} result={result} redirectTo={redirectTo} />
}
