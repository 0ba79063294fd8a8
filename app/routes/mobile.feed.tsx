import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FeedPostView } from '~/components/feed/feed-post'
import { KitForm, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { MobileRouteError, MobileSessionShell } from '~/components/tms/mobile-shell'
import { FEED_MEDIA_TYPES, FeedPostInput, FeedQuery } from '#shared/schemas/feed'
import { apiData, orNull } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, publicApiAction } from '~/server/api-action.server'
import { clearMobileCookie, mobileApi, mobileSignin, mobileSignout, mobileToken, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: feedStyles }]
export const handle = { title: 'mobile.feed.title' }

/** `?realm=` of a multi-realm host's link, kept on every link and form of the page. */
function realmQuery(request: Request): string {
  const realm = new URL(request.url).searchParams.get('realm')
  return realm ? `realm=${encodeURIComponent(realm)}` : ''
}
const withQuery = (path: string, query: string, more = '') => {
  const q = [query, more].filter(Boolean).join('&')
  return q ? `${path}?${q}` : path
}

/**
 * GET /mobile/feed (public mobile-web, seed 000 §2.3; issue 13): the signed-in student's feed — posts of the rooms
 * they are a member of, pinned first, by pages (`?after=`) — with a form to post to one of their rooms. Without a
 * mobile session it shows the sign-in form (the realm's username sign-in, `POST /device` with platform `mobile`);
 * the session lives in its own cookie (`server/mobile-session.server.ts`). The page always uses the OCEAN theme.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const brand = { name: realm.config.name, logo_url: realm.config.logo_url }
  const base = { brand, timeZone: realm.config.time_zone || DEFAULT_TIME_ZONE, query: realmQuery(request) }
  const noStore = { 'Cache-Control': 'no-store' }
  const session = await mobileUser(request, context, realm)
  if (session.state === 'none') return data({ ...base, state: 'signin' as const }, { headers: noStore })
  if (session.state === 'expired')
    return data({ ...base, state: 'signin' as const }, { headers: { ...noStore, 'Set-Cookie': await clearMobileCookie(request) } })
  const { api, me } = session
  const q = v.safeParse(FeedQuery, Object.fromEntries(new URL(request.url).searchParams))
  const after = q.success ? q.output.after : undefined
  // The only refusal of /feed/mine for a signed-in user is the realm's feed being off (403 disabled).
  const page = await orNull(apiData(api.feed.mine.$get({ query: { after } })), [403])
  if (!page) return data({ ...base, state: 'disabled' as const, me: { name: me.name, nick: me.nick } }, { headers: noStore })
  return data({ ...base, state: 'feed' as const, me: { name: me.name, nick: me.nick }, page, after: after ?? null }, { headers: noStore })
}

const Intent = v.picklist(['signin', 'signout', 'post'])

export async function action({ request, context }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) throw new Response(null, { status: 404 })
  const intent = v.safeParse(Intent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success) throw new Response(null, { status: 400 })
  const home = withQuery('/mobile/feed', realmQuery(request))
  const token = await mobileToken(request)

  if (intent.output === 'post')
    return publicApiAction(
      request,
      context,
      {
        schema: FeedPostInput,
        call: (api, json) => apiData(api.feed.post.$post({ json })),
        redirect: home,
        flash: (post) => ({ kind: 'success', message: post.status === 'pending' ? 'feed.held' : 'feed.posted' }),
      },
      mobileApi(request, context, realm, token),
    )

  if (intent.output === 'signout') return mobileSignout(request, context, realm, home)
  // Sign-in: the realm's username sign-in, as the mobile app does it (platform mobile).
  return mobileSignin(request, context, { ...realm, code: realm.code }, home)
}

export default function MobileFeedRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <MobileSessionShell area="feed" page={d}>
      {d.state === 'disabled' ? (
        <p className="card" role="status">
          {t('feed.error.disabled')}
        </p>
      ) : null}
      {d.state === 'feed' ? <Feed /> : null}
    </MobileSessionShell>
  )
}

function Feed() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData()
  const { t } = useTranslation()
  if (d.state !== 'feed') return null
  const { page, me } = d
  const posts = [...page.pinned, ...page.items]
  return (
    <>
      <p>{t('mobile.feed.hello', { name: me.name || me.nick })}</p>
      {page.rooms.length ? (
        !d.after ? (
          <KitForm
            // A new post (the page's newest changes) starts an empty form; a refused one keeps what was typed.
            key={page.items[0]?.id ?? 'none'}
            id="mobile-feed-compose"
            schema={FeedPostInput}
            lastResult={lastResult}
            action={withQuery('/mobile/feed', d.query, 'intent=post')}
            defaultValue={{ room_id: page.rooms[0].id, message: '', media_type: 'none', media_url: '' }}
            timeZone={d.timeZone}
            className="card feed-compose"
            aria-label={t('mobile.feed.write')}
            submitLabel={t('feed.publish')}
            submitIcon="send"
            labels={{ room_id: t('feed.room'), message: t('feed.message'), media_type: t('feed.media_type'), media_url: t('feed.media_url') }}
          >
            <h2>{t('mobile.feed.write')}</h2>
            {page.moderated ? <p className="hint">{t('feed.moderated')}</p> : null}
            <SelectInput name="room_id" label={t('feed.room')} options={page.rooms.map((r) => ({ value: r.id, label: r.name }))} />
            <TextArea name="message" label={t('feed.message')} rows={3} />
            <div className="row">
              <SelectInput name="media_type" label={t('feed.media_type')} options={FEED_MEDIA_TYPES.map((m) => ({ value: m, label: t(`feed.media.${m}`) }))} />
              <TextInput name="media_url" label={t('feed.media_url')} type="url" autoComplete="off" />
            </div>
          </KitForm>
        ) : null
      ) : (
        <p className="card hint">{t('mobile.feed.no_rooms')}</p>
      )}
      <section aria-labelledby="mobile-feed-list-title">
        <h2 id="mobile-feed-list-title" className="visually-hidden">
          {t('mobile.feed.title')}
        </h2>
        {posts.length ? (
          <ul className="feed-list">
            {posts.map((p) => (
              <FeedPostView key={p.id} post={p} timeZone={d.timeZone} showRoom />
            ))}
          </ul>
        ) : (
          <p className="hint">{t('feed.empty')}</p>
        )}
      </section>
      <nav className="feed-actions" aria-label={t('mobile.feed.title')}>
        {d.after ? (
          <Link className="btn" to={withQuery('/mobile/feed', d.query)}>
            {t('feed.newest')}
          </Link>
        ) : null}
        {page.next ? (
          <Link className="btn" to={withQuery('/mobile/feed', d.query, `after=${page.next}`)}>
            {t('feed.more')}
          </Link>
        ) : null}
      </nav>
    </>
  )
}

/** Any failure of the page: the mobile page's own error state, with a retry. */
export const ErrorBoundary = () => <MobileRouteError message="feed.load_error" />
