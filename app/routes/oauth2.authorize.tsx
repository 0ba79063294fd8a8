import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react'
import * as v from 'valibot'
import { LoginScreen, type LoginNotice } from '~/components/signin/login-screen'
import { OAuthConsent, OAuthError } from '~/components/signin/oauth-consent'
import { RealmChooser, type RealmChoiceResult } from '~/components/signin/realm-chooser'
import { RealmCode } from '#shared/schemas/common'
import type { ErrorItem } from '#shared/schemas/error'
import type { AuthorizeRequestInfo } from '#shared/schemas/oauth2'
import { signinModuleUrl } from '~/components/signin/signin-page-url'
import { loadAsDocument } from '~/lib/document-navigation'
import type { HydrationHandle, RootData } from '~/root'
import { apiData, realmApi, RealmApiError } from '~/server/api.server'
import { requireUser, safeRedirect, type SigninRequired } from '~/server/auth.server'
import { realmCookie } from '#shared/cookies.server'
import { sessionCookie } from '~/server/cookies.server'
import { getRealmContext } from '~/server/realm.server'

/** The sign-in screen of an OAuth2 request is served without React, as /login is; the chooser and consent hydrate. */
const hydrates = (data: unknown) => (data as LoaderData | undefined)?.mode !== 'signin'
export const handle = {
  title: 'realm.select.title',
  hydrate: hydrates,
  module: signinModuleUrl,
} satisfies HydrationHandle & { title: string }

/** Its sign-in screen is loaded as a document, never rendered by a client navigation (app/lib/document-navigation.ts). */
export const clientLoader = loadAsDocument(hydrates)

const OAUTH_PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const

/** The OAuth2 parameters of a request or form, when it carries an authorization request. */
function oauthParams(source: URLSearchParams | FormData): Record<string, string> | null {
  if (!source.has('client_id') || !source.has('response_type')) return null
  return Object.fromEntries(OAUTH_PARAMS.flatMap((k) => (source.has(k) ? [[k, String(source.get(k))]] : [])))
}

type LoaderData =
  | { mode: 'chooser' }
  | { mode: 'choose-realm' }
  | { mode: 'signin'; notice: LoginNotice }
  | { mode: 'consent'; info: AuthorizeRequestInfo; params: Record<string, string>; user: { name: string; nick: string } }
  | { mode: 'error'; errors: ErrorItem[] }

/**
 * Without OAuth2 parameters: the realm chooser of multi-realm hosts (a realm host has nothing to choose). With them:
 * the consent screen of the signed-in user, after choosing a realm and signing in when needed (then back here).
 */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<LoaderData> {
  const realm = await getRealmContext(request, context)
  const params = oauthParams(new URL(request.url).searchParams)
  if (!params) {
    if (!realm.multirealm) throw redirect('/')
    return { mode: 'chooser' }
  }
  if (!realm.config) return { mode: 'choose-realm' }
  let found
  try {
    found = await requireUser(request, context)
  } catch (err) {
    if (err instanceof Response && (err.status === 401 || err.status === 403)) {
      const reason = ((await err.json().catch(() => ({}))) as Partial<SigninRequired>).reason
      return { mode: 'signin', notice: reason ?? 'signin' }
    }
    throw err
  }
  try {
    const info = await apiData(found.api.mas.oauth2.authorize.$get({ query: params }))
    return { mode: 'consent', info, params, user: { name: found.user.name, nick: found.user.nick } }
  } catch (err) {
    if (err instanceof RealmApiError && err.status === 400) return { mode: 'error', errors: err.errors }
    throw err
  }
}

/** Consent (intents `allow`, `deny`), or the chooser's `select` and the change-realm button's `reset`. */
export async function action({ request, context }: ActionFunctionArgs) {
  const realm = await getRealmContext(request, context)
  const form = await request.formData()
  const intent = form.get('intent')
  if (intent === 'allow' || intent === 'deny') {
    const params = oauthParams(form)
    if (!params)
      return data({ errors: [{ field: 'client_id', cause: 'invalid_request', value: null, message: 'validation.required' }] as ErrorItem[] }, { status: 400 })
    const { api } = await requireUser(request, context)
    try {
      if (intent === 'allow') {
        const grant = await apiData(api.mas.oauth2.authorize.$post({ json: params }))
        throw redirect(grant.redirect_to)
      }
      // Refusing returns to the application only once its redirect_uri is known to be registered.
      const info = await apiData(api.mas.oauth2.authorize.$get({ query: params }))
      const back = new URL(info.redirect_uri)
      back.searchParams.set('error', 'access_denied')
      if (info.state) back.searchParams.set('state', info.state)
      throw redirect(back.toString())
    } catch (err) {
      if (err instanceof RealmApiError && err.status === 400) return data({ errors: err.errors }, { status: 400 })
      throw err
    }
  }
  const headers = new Headers()
  if (!realm.multirealm) throw redirect('/')
  if (intent === 'reset') {
    headers.append('Set-Cookie', await realmCookie(request).serialize('', { maxAge: 0 }))
    headers.append('Set-Cookie', await sessionCookie(request).serialize('', { maxAge: 0 }))
    throw redirect('/', { headers })
  }
  const parsed = v.safeParse(RealmCode, form.get('realm') ?? '')
  if (!parsed.success) {
    return data<RealmChoiceResult>({ error: { field: 'realm', message: parsed.issues[0].message } }, { status: 400 })
  }
  try {
    await realmApi(request, context).mas.realm[':code'].config.$get({ param: { code: parsed.output } })
  } catch (err) {
    if (err instanceof RealmApiError && err.status === 404) {
      return data<RealmChoiceResult>({ error: { field: 'realm', message: 'realm.error.not_found', values: { code: parsed.output } } }, { status: 404 })
    }
    if (err instanceof RealmApiError && err.status < 500) {
      return data<RealmChoiceResult>({ error: { field: 'realm', message: 'realm.error.load' } }, { status: err.status })
    }
    throw err
  }
  headers.append('Set-Cookie', await realmCookie(request).serialize(parsed.output))
  // A session belongs to one realm: choosing another realm signs out of the previous one.
  if (realm.code && realm.code !== parsed.output) headers.append('Set-Cookie', await sessionCookie(request).serialize('', { maxAge: 0 }))
  throw redirect(safeRedirect(form.get('redirectTo')), { headers })
}

export default function RealmChooserRoute() {
  const loaded = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const root = useRouteLoaderData<RootData>('root')
  const location = useLocation()
  const here = location.pathname + location.search
  if (result && 'errors' in result) return <OAuthError errors={result.errors} />
  if (loaded.mode === 'error') return <OAuthError errors={loaded.errors} />
  if (loaded.mode === 'choose-realm' || !root?.realm)
    return <RealmChooser result={result && 'error' in result ? result : undefined} redirectTo={loaded.mode === 'chooser' ? undefined : here} />
  if (loaded.mode === 'signin')
    return (
      <LoginScreen
        config={root.realm}
        multirealm={root.multirealm}
        locale={root.locale}
        notice={loaded.notice}
        redirectTo={here}
        pathname={location.pathname}
        search={location.search}
      />
    )
  if (loaded.mode === 'consent') return <OAuthConsent config={root.realm} info={loaded.info} params={loaded.params} user={loaded.user} />
  return <RealmChooser result={result && 'error' in result ? result : undefined} />
}
