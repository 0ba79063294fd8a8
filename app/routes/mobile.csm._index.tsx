import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import type { WatchableSession } from '#shared/schemas/csm-watch'
import { MobileCsmError, realmQuery, withQuery } from '~/components/session/mobile-csm'
import { MobileSessionShell } from '~/components/tms/mobile-shell'
import { Icon } from '~/components/ui/icon'
import { clockDuration } from '~/lib/format'
import { calendarDay } from '~/lib/list-format'
import { sendUnsent } from '~/lib/watch-outbox'
import { apiData } from '~/server/api.server'
import { clearMobileCookie, mobileSessionAction, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'
import watchStyles from '~/styles/mobile-csm.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: watchStyles },
]
export const handle = { title: 'mobile.csm.title' }

const Filters = v.object({
  room_id: v.optional(v.fallback(v.pipe(v.string(), v.regex(/^[\w-]{1,40}$/)), ''), ''),
  category_id: v.optional(v.fallback(v.pipe(v.string(), v.regex(/^[\w-]{1,40}$/)), ''), ''),
})

/**
 * GET /mobile/csm (public mobile-web, seed 002 §2 `mobile/csm`; issue 15): the signed-in student's published sessions
 * — of the rooms and channels they are a member of — grouped by room (a channel's by channel), filtered by room and
 * category, each with its length and how much the student watched, linking to the player. Without a mobile session
 * it shows the mobile sign-in (the same session as `/mobile/feed`).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const brand = { name: realm.config.name, logo_url: realm.config.logo_url }
  const filters = v.parse(Filters, Object.fromEntries(new URL(request.url).searchParams))
  const base = { brand, query: realmQuery(request), filters }
  const noStore = { 'Cache-Control': 'no-store' }
  const session = await mobileUser(request, context, realm)
  if (session.state === 'none') return data({ ...base, state: 'signin' as const }, { headers: noStore })
  if (session.state === 'expired')
    return data({ ...base, state: 'signin' as const }, { headers: { ...noStore, 'Set-Cookie': await clearMobileCookie(request) } })
  const list = await apiData(
    session.api.csm.session.watchable.$get({ query: { room_id: filters.room_id || undefined, category_id: filters.category_id || undefined } }),
  )
  return data({ ...base, state: 'list' as const, me: session.me, ...list }, { headers: noStore })
}

export const action = (args: ActionFunctionArgs) => mobileSessionAction(args, withQuery('/mobile/csm', realmQuery(args.request)))

/** The sessions in groups: each room's, each channel's, then the rest, in the list's order (newest first). */
function groups(items: WatchableSession[], t: (k: string, o?: Record<string, unknown>) => string) {
  const out = new Map<string, { title: string; items: WatchableSession[] }>()
  for (const s of items) {
    const key = s.room_id ? `room:${s.room_id}` : s.channel_name ? `channel:${s.channel_id}` : 'other'
    const title = s.room_id
      ? (s.room_name ?? s.room_id)
      : s.channel_name
        ? t('mobile.csm.channel_group', { name: s.channel_name })
        : t('mobile.csm.other_group')
    const g = out.get(key) ?? { title, items: [] }
    g.items.push(s)
    out.set(key, g)
  }
  return [...out.entries()]
}

export default function MobileSessionsRoute() {
  const d = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation()
  const { revalidate } = useRevalidator()
  const nick = d.state === 'list' ? d.me.nick : null
  // A player closed before its last report was acknowledged left it in storage: send it now, then read the progress again.
  useEffect(() => {
    if (!nick) return
    void sendUnsent(nick, (id) => withQuery(`/mobile/csm/report/${id}`, d.query)).then((taken) => taken && revalidate())
  }, [nick, d.query, revalidate])
  return (
    <MobileSessionShell area="csm" page={d}>
      {d.state === 'list' ? (
        <>
          <p>{t('mobile.csm.hello', { name: d.me.name || d.me.nick })}</p>
          {d.rooms.length || d.categories.length ? (
            <Form method="get" className="card csm-filters" aria-label={t('mobile.csm.filters')}>
              {d.query ? <input type="hidden" name="realm" value={new URLSearchParams(d.query).get('realm') ?? ''} /> : null}
              <div className="field">
                <label htmlFor="csm-room">{t('mobile.csm.room')}</label>
                <select id="csm-room" name="room_id" className="input" defaultValue={d.filters.room_id}>
                  <option value="">{t('mobile.csm.all_rooms')}</option>
                  {d.rooms.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor="csm-category">{t('mobile.csm.category')}</label>
                <select id="csm-category" name="category_id" className="input" defaultValue={d.filters.category_id}>
                  <option value="">{t('mobile.csm.all_categories')}</option>
                  {d.categories.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </div>
              <button type="submit" className="btn">
                <Icon name="search" /> {t('mobile.csm.apply')}
              </button>
            </Form>
          ) : null}
          {d.items.length ? (
            groups(d.items, t).map(([key, g]) => (
              <section key={key} className="csm-group" aria-labelledby={`csm-group-${key.replace(/\W/g, '-')}`}>
                <h2 id={`csm-group-${key.replace(/\W/g, '-')}`}>{g.title}</h2>
                <ul className="csm-list">
                  {g.items.map((s) => (
                    <li key={s.id} className="card csm-item" data-session={s.id}>
                      <Link to={withQuery(`/mobile/csm/watch/${s.id}`, d.query)} aria-label={t('mobile.csm.watch', { title: s.title })}>
                        <Icon name="play" /> <strong>{s.title}</strong>
                      </Link>
                      <p className="hint">
                        {calendarDay(s.reference_date, undefined, undefined, { locale: i18n.language, timeZone: 'UTC' })} ·{' '}
                        {t('mobile.csm.duration', { duration: clockDuration(s.duration_seconds) })}
                        {s.categories.length ? ` · ${s.categories.map((c) => c.name ?? c.id).join(', ')}` : ''}
                      </p>
                      <progress max={100} value={s.percent} aria-label={t('mobile.csm.progress_label')} />{' '}
                      <span data-percent={s.percent}>{t('mobile.csm.watched', { percent: new Intl.NumberFormat(i18n.language).format(s.percent) })}</span>
                    </li>
                  ))}
                </ul>
              </section>
            ))
          ) : (
            <p className="card hint" role="status">
              {d.filters.room_id || d.filters.category_id ? t('mobile.csm.empty_filtered') : t('mobile.csm.empty')}
            </p>
          )}
        </>
      ) : null}
    </MobileSessionShell>
  )
}

export const ErrorBoundary = MobileCsmError
