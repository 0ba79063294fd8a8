import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { LiveRoom } from '~/components/live/live-room'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { Icon } from '~/components/ui/icon'
import { getToken } from '~/server/auth.server'
import { clearMobileCookie, mobileSignin, mobileSignout, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'pages.public.live' }

/**
 * The participant view of a channel (public route `/live/{channelId}`, issue 13): signed-in users join with their
 * ticket — the console session's, else the mobile-web session's (a student signs in here with the mobile sign-in,
 * `server/mobile-session.server.ts`, and members of private or invite-only channels join with their role) —;
 * visitors join as guests with a name where the channel is public. The deep-link page's "continue in the browser"
 * opens it. Whether the channel exists and admits the visitor is the ticket's answer (shown as the room's state), so
 * the page itself says nothing about the channel before that.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  const channelId = params.channelId ?? ''
  const here = new URL(request.url).pathname
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  let session: 'console' | 'mobile' | null = null
  let me: { name: string; nick: string } | null = null
  if (realm.code && (await getToken(request))) session = 'console'
  else if (realm.code) {
    const mobile = await mobileUser(request, context, realm)
    if (mobile.state === 'user') {
      session = 'mobile'
      me = mobile.me
    } else if (mobile.state === 'expired') headers.append('Set-Cookie', await clearMobileCookie(request))
  }
  return data(
    {
      channelId,
      here,
      realm: realm.config?.name ?? null,
      session,
      me,
      consoleSigninHref: `/login?redirectTo=${encodeURIComponent(here)}`,
    },
    { headers },
  )
}

const Intent = v.picklist(['signin', 'signout'])

/** `?intent=signin`: the mobile-web sign-in (username and password); `?intent=signout` ends that session. */
export async function action({ request, context }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const intent = v.safeParse(Intent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  const home = new URL(request.url).pathname
  if (intent.output === 'signout') return mobileSignout(request, context, realm, home)
  return mobileSignin(request, context, { ...realm, code: realm.code }, home)
}

export default function LiveParticipantRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const [guest, setGuest] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [asGuest, setAsGuest] = useState(false)
  return (
    <main className="live-public" id="main">
      <header className="live-public-header">
        <div>
          {d.realm ? <p className="live-realm">{d.realm}</p> : null}
          <h1>{t('pages.public.live')}</h1>
        </div>
        {d.session === 'mobile' && d.me ? (
          <Form method="post" action={`${d.here}?intent=signout`} className="live-account">
            <span>{t('live.signed_in_as', { name: d.me.name || d.me.nick })}</span>
            <button type="submit" className="btn">
              <Icon name="logout" /> {t('mobile.feed.signout')}
            </button>
          </Form>
        ) : null}
      </header>
      {d.session !== null || guest !== null ? (
        <LiveRoom
          channelId={d.channelId}
          guest={guest}
          view="participant"
          // A mobile session that ended is cleared by this page's loader, which then offers the sign-in again.
          signinHref={d.session === 'mobile' ? d.here : d.consoleSigninHref}
        />
      ) : (
        <div className="live-join">
          <MobileSigninForm action={`${d.here}?intent=signin`} title={t('live.member_signin')} />
          <section className="card live-join-other" aria-labelledby="live-join-title">
            <h2 id="live-join-title">{t('live.other_ways')}</h2>
            {asGuest ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault()
                  if (name.trim().length >= 2) setGuest(name.trim())
                }}
              >
                <div className="field">
                  <label htmlFor="live-guest-name">{t('live.guest_name')}</label>
                  <input
                    id="live-guest-name"
                    value={name}
                    minLength={2}
                    maxLength={40}
                    required
                    autoComplete="nickname"
                    onChange={(e) => setName(e.target.value)}
                    aria-describedby="live-guest-hint"
                  />
                  <p id="live-guest-hint" className="field-hint">
                    {t('live.guest_hint')}
                  </p>
                </div>
                <button type="submit" className="btn btn-primary">
                  {t('live.join')}
                </button>
              </form>
            ) : (
              <div className="live-join-choices">
                <button type="button" className="btn" onClick={() => setAsGuest(true)}>
                  {t('live.as_guest')}
                </button>
                <a className="btn" href={d.consoleSigninHref}>
                  {t('live.console_signin')}
                </a>
              </div>
            )}
          </section>
        </div>
      )}
    </main>
  )
}
