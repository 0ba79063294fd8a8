import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { MobileSignout } from '~/components/live/public-page'
import { PersonaChat } from '~/components/persona-chat/persona-chat'
import { LanguageMenu } from '~/components/shell/language-menu'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { RealmApiError, apiData } from '~/server/api.server'
import { clearMobileCookie, mobileSessionAction, mobileUser } from '~/server/mobile-session.server'
import { visitorApi } from '~/server/persona-chat.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import chatStyles from '~/styles/persona-chat.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: chatStyles }]
export const handle = { title: 'pages.public.persona.chat' }

/** Why the chat cannot open, as the realm API answered (seed 002 §4 "private persona needing login"; the terms agreement). */
type Blocked = 'login_required' | 'terms_required' | 'not_found' | 'error'

/**
 * The public chat with a persona (`/personai/chat/{personaId}`, public, needs persona_enabled; issue 16 "The public
 * chat"). The page asks the realm API for the persona's face as the visitor — the console session, else the
 * mobile-web session, else a guest — and says why the chat cannot open: a private persona needs a sign-in (the
 * mobile-web sign-in here, or the console's), a persona whose terms were not accepted cannot be used. The chat itself
 * is the persona-chat party's (components/persona-chat).
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  const personaId = params.personaId ?? ''
  const here = new URL(request.url).pathname
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  const { api, session } = await visitorApi(request, context)
  let me: { name: string; nick: string } | null = null
  if (session === 'mobile') {
    const mobile = await mobileUser(request, context, realm)
    if (mobile.state === 'user') me = mobile.me
    else if (mobile.state === 'expired') headers.append('Set-Cookie', await clearMobileCookie(request))
  }
  let face: Awaited<ReturnType<typeof loadFace>> | null = null
  let blocked: Blocked | null = null
  try {
    face = await loadFace(api, personaId)
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    blocked = err.status === 401 ? 'login_required' : err.status === 409 ? 'terms_required' : err.status === 404 || err.status === 403 ? 'not_found' : 'error'
  }
  return data(
    { personaId, here, realm: realm.config?.name ?? null, session, me, face, blocked, consoleSigninHref: `/login?redirectTo=${encodeURIComponent(here)}` },
    { headers, status: blocked === 'not_found' ? 404 : 200 },
  )
}

function loadFace(api: Awaited<ReturnType<typeof visitorApi>>['api'], personaId: string) {
  return apiData(api.personai.chat[':personaId'].$get({ param: { personaId } }))
}

/** `?intent=signin`: the mobile-web sign-in (a private persona's visitor); `?intent=signout` ends that session. */
export const action = (args: ActionFunctionArgs) => mobileSessionAction(args)

export default function PersonaChatRoute() {
  const d = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation()
  const signin = (
    <div className="pchat-signin">
      <MobileSigninForm action={`${d.here}?intent=signin`} title={t('persona.chat.signin_title')} />
      <p>
        <a className="btn" href={d.consoleSigninHref}>
          {t('persona.chat.console_signin')}
        </a>
      </p>
    </div>
  )
  return (
    <main className="pchat-page" id="main">
      <div className="pchat-bar">
        {d.realm ? <span className="pchat-realm">{d.realm}</span> : <span />}
        <LanguageMenu locale={i18n.language} />
        <MobileSignout d={d} className="pchat-account" signedIn="persona.chat.signed_in_as" />
      </div>
      {d.face ? (
        <PersonaChat personaId={d.personaId} initial={d.face} signinSlot={signin} />
      ) : (
        <section className="pchat pchat-blocked" aria-labelledby="pchat-blocked-title">
          <h1 id="pchat-blocked-title">{t('pages.public.persona.chat')}</h1>
          <p role="alert">{t(`persona.chat.blocked.${d.blocked ?? 'error'}`)}</p>
          {d.blocked === 'login_required' ? signin : null}
        </section>
      )}
    </main>
  )
}
