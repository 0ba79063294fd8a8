import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LiveRoom } from '~/components/live/live-room'
import { getToken } from '~/server/auth.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'

export const handle = { title: 'pages.public.live' }

/**
 * The participant view of a channel (public route `/live/{channelId}`, issue 13): signed-in users join with their
 * ticket; visitors join as guests with a name where the channel is public, and are offered the sign-in otherwise. The
 * deep-link page's "continue in the browser" opens it. Whether the channel exists and admits the visitor is the
 * ticket's answer (shown as the room's state), so the page itself says nothing about the channel before that.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  const channelId = params.channelId ?? ''
  const here = new URL(request.url)
  return {
    channelId,
    realm: realm.config?.name ?? null,
    signedIn: Boolean(realm.code && (await getToken(request))),
    signinHref: `/login?redirectTo=${encodeURIComponent(here.pathname)}`,
  }
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
        {d.realm ? <p className="live-realm">{d.realm}</p> : null}
        <h1>{t('pages.public.live')}</h1>
      </header>
      {d.signedIn || guest !== null ? (
        <LiveRoom channelId={d.channelId} guest={guest} view="participant" signinHref={d.signinHref} />
      ) : (
        <section className="card live-join" aria-labelledby="live-join-title">
          <h2 id="live-join-title">{t('live.join_title')}</h2>
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
              <a className="btn btn-primary" href={d.signinHref}>
                {t('live.signin')}
              </a>
              <button type="button" className="btn" onClick={() => setAsGuest(true)}>
                {t('live.as_guest')}
              </button>
            </div>
          )}
        </section>
      )}
    </main>
  )
}
