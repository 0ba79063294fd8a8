import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react'
import * as v from 'valibot'
import { LoginScreen, type LoginNotice, type LoginResult } from '~/components/signin/login-screen'
import { signinModuleUrl } from '~/components/signin/signin-page-url'
import type { SigninMethod as SigninTab } from '#shared/schemas/realm'
import { EmployeeSignin, EmployeeTokenSignin, employeeId, fieldErrors, UsernameSignin, type DeviceSession } from '#shared/schemas/auth'
import { SessionKey } from '#shared/schemas/captcha'
import { RealmCode } from '#shared/schemas/common'
import type { RealmConfig } from '#shared/schemas/realm'
import type { HydrationHandle, RootData } from '~/root'
import { loadAsDocument } from '~/lib/document-navigation'
import { apiData, realmApi, RealmApiError } from '~/server/api.server'
import { getToken, safeRedirect } from '~/server/auth.server'
import { googleNonceCookie } from '~/server/cookies.server'
import { getRealmContext, type RealmContext } from '~/server/realm.server'
import { completeSignin, signinFailure, type SigninMethod } from '~/server/signin.server'

/**
 * The sign-in page is served without React (issue 12): its forms post here without script, and one standalone
 * module (signin-page.ts) adds the rest. Without a realm the page is the realm chooser, which React hydrates; it needs
 * only the sign-in group of the catalogue (app/i18n/config.ts).
 */
const hydrates = (data: unknown) => (data as { chooser?: boolean } | undefined)?.chooser === true
export const handle = {
  title: 'login.title',
  catalogue: 'signin',
  hydrate: hydrates,
  module: signinModuleUrl,
} satisfies HydrationHandle & { title: string; catalogue: 'signin' }

/** Arriving from another page loads the sign-in screen as a document (app/lib/document-navigation.ts). */
export const clientLoader = loadAsDocument(hydrates)

/** Why a console page sent the browser here (`reason`, set by the console layout's guard), shown above the form. */
const Reason = v.picklist(['session_timeout', 'dashboard_access', 'realm'] satisfies LoginNotice[])

export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams
  const redirectTo = safeRedirect(params.get('redirectTo'))
  const reason = v.safeParse(Reason, params.get('reason'))
  const realm = await getRealmContext(request, context)
  if (realm.config && (await getToken(request))) throw redirect(redirectTo)
  // Without a realm the page is the realm chooser, the one screen of this route React renders.
  return { redirectTo, notice: reason.success ? reason.output : undefined, chooser: !realm.config }
}

const Intent = v.optional(v.picklist(['device', 'employee', 'employee_token', 'google', 'token']), 'device')
const GoogleSignin = v.object({
  id_token: v.pipe(v.string('validation.required'), v.minLength(20, 'validation.token'), v.maxLength(8000, 'validation.max_length')),
})
const TokenLink = v.object({
  token: v.pipe(v.string('validation.required'), v.minLength(10, 'validation.token'), v.maxLength(8000, 'validation.max_length')),
  provider: v.picklist(['employee_token', 'google'], 'validation.picklist'),
})

/** The realm a sign-in is for: the host's or the chosen one; on multi-realm hosts a token link may name another. */
async function signinRealm(
  request: Request,
  context: ActionFunctionArgs['context'],
  named: FormDataEntryValue | null,
): Promise<(RealmContext & { code: string; config: RealmConfig }) | null> {
  const realm = await getRealmContext(request, context)
  const wanted = v.safeParse(RealmCode, named ?? '')
  if (realm.multirealm && wanted.success && wanted.output !== realm.code) {
    try {
      const config = await apiData(realmApi(request, context).mas.realm[':code'].config.$get({ param: { code: wanted.output } }))
      return { code: wanted.output, multirealm: true, config }
    } catch (err) {
      if (err instanceof RealmApiError && err.status === 404) return null
      throw err
    }
  }
  return realm.code && realm.config ? { ...realm, code: realm.code, config: realm.config } : null
}

/** The tab each sign-in method's form sits in (a failed attempt shows that tab again). */
const TAB: Record<SigninMethod, SigninTab | undefined> = {
  device: 'iptv',
  employee: 'employee',
  employee_token: 'employee_token',
  google: 'google',
  token: undefined,
}

/** What was typed in the form, answered with its errors so the page shows it again (never a password or token). */
function typedValues(form: FormData): Record<string, string> {
  const values: Record<string, string> = {}
  for (const name of ['nick', 'doc_type', 'doc_number', 'uf']) {
    const value = form.get(name)
    if (typeof value === 'string' && value) values[name] = value.slice(0, 100)
  }
  return values
}

/**
 * Every sign-in method (seed 000 §2.1, §7): username (POST device), employee (registration/edusp), employee token
 * (registration/edusp/token), token link (query string) and Google (mas/registration). Each validates its form with
 * the shared schema, forwards the captcha token when there is one, then `completeSignin` checks dashboard access and
 * sets the session cookie.
 */
/** The session a Google registration answers (`create: true`, as here; without it the API answers the account's preview). */
function sessionOf(answer: DeviceSession | { nick: string; auth_token?: undefined }): DeviceSession {
  if (answer.auth_token !== undefined) return answer
  throw new RealmApiError(502, [{ field: '', cause: 'internal', value: null, message: 'The registration answered no session.' }])
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData()
  const intent = v.safeParse(Intent, form.get('intent') ?? undefined)
  const sent = { method: intent.success ? TAB[intent.output] : undefined, values: typedValues(form) }
  const fail = (result: LoginResult, status: number, headers?: Headers) => data<LoginResult>({ ...result, ...sent }, { status, headers })
  const realm = await signinRealm(request, context, form.get('realm'))
  if (!realm) return fail({ formError: 'realm.error.not_found', formErrorValues: { code: String(form.get('realm') ?? '') } }, 404)
  const field = (name: string) => form.get(name) ?? ''
  if (!intent.success) return fail({ formError: 'login.msg.error.400', formErrorValues: { details: 'intent: picklist' } }, 400)
  const method: SigninMethod = intent.output

  const headers: Record<string, string> = { 'x-api-platform': 'dashboard' }
  const captcha = String(field('captcha_token'))
  const key = v.safeParse(SessionKey, field('session_key'))
  if (captcha && key.success) Object.assign(headers, { 'x-captcha-token': captcha, 'x-session-key': key.output })
  const api = realmApi(request, context, { endpoint: realm.config.api_endpoint, realm: realm.multirealm ? realm.code : undefined })
  const base = { realm: realm.code, platform: 'dashboard' as const }
  const setCookies = new Headers()

  let call: () => Promise<DeviceSession>
  if (method === 'device') {
    const parsed = v.safeParse(UsernameSignin, { nick: field('nick'), password: field('password') })
    if (!parsed.success) return fail({ fieldErrors: fieldErrors(parsed.issues) }, 400)
    call = () => apiData(api.device.$post({ json: { ...base, ...parsed.output } }, { headers }))
  } else if (method === 'employee') {
    const parsed = v.safeParse(EmployeeSignin, { doc_type: field('doc_type'), doc_number: field('doc_number'), uf: field('uf'), password: field('password') })
    if (!parsed.success) return fail({ fieldErrors: fieldErrors(parsed.issues) }, 400)
    const { doc_type, doc_number, uf, password } = parsed.output
    call = () => apiData(api.registration.edusp.$post({ json: { ...base, id: employeeId(doc_type, doc_number, uf), password } }, { headers }))
  } else if (method === 'employee_token') {
    const parsed = v.safeParse(EmployeeTokenSignin, { token: field('token') })
    if (!parsed.success) return fail({ fieldErrors: fieldErrors(parsed.issues) }, 400)
    call = () => apiData(api.registration.edusp.token.$post({ json: { ...base, token: parsed.output.token } }, { headers }))
  } else if (method === 'token') {
    const parsed = v.safeParse(TokenLink, { token: field('token'), provider: field('provider') })
    if (!parsed.success || !realm.config.allowed_signin.includes(parsed.output.provider)) return fail({ formError: 'login.msg.error.credentials.token' }, 400)
    const { token, provider } = parsed.output
    call = () =>
      provider === 'employee_token'
        ? apiData(api.registration.edusp.token.$post({ json: { ...base, token } }, { headers }))
        : apiData(api.mas.registration.$post({ json: { realm: realm.code, token, provider: 'google', create: true } }, { headers })).then(sessionOf)
  } else {
    const parsed = v.safeParse(GoogleSignin, { id_token: field('id_token') })
    if (!parsed.success) return fail({ formError: 'login.msg.error.google.invalid' }, 400)
    const nonceCookie = googleNonceCookie(request)
    const nonce = (await nonceCookie.parse(request.headers.get('cookie'))) as string | null
    if (!nonce) return fail({ formError: 'login.msg.error.google.invalid' }, 400)
    setCookies.append('Set-Cookie', await nonceCookie.serialize('', { maxAge: 0 }))
    call = () =>
      apiData(
        api.mas.registration.$post({ json: { realm: realm.code, token: parsed.output.id_token, provider: 'google', create: true, nonce } }, { headers }),
      ).then(sessionOf)
  }

  let session: DeviceSession
  try {
    session = await call()
  } catch (err) {
    const { result, status } = signinFailure(err, method)
    return fail(result, status, setCookies)
  }
  try {
    const { result, status } = await completeSignin(request, context, realm, session, form.get('redirectTo'))
    return fail(result, status, setCookies)
  } catch (response) {
    if (response instanceof Response) for (const c of setCookies.getSetCookie()) response.headers.append('Set-Cookie', c)
    throw response
  }
}

export default function LoginRoute() {
  const { redirectTo, notice } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const root = useRouteLoaderData<RootData>('root')
  const { pathname, search } = useLocation()
  if (!root?.realm) return null
  return (
    <LoginScreen
      config={root.realm}
      multirealm={root.multirealm}
      locale={root.locale}
      result={result}
      redirectTo={redirectTo}
      notice={notice}
      pathname={pathname}
      search={search}
    />
  )
}
