import { BrandMark } from '~/components/tms/mobile-shell'
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { WATCH_MAX_SLOTS, progressOf, type WatchPlayer } from '#shared/schemas/csm-watch'
import { Id } from '#shared/schemas/tms/common'
import { MobileCsmError, realmQuery, withQuery } from '~/components/session/mobile-csm'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { Icon } from '~/components/ui/icon'
import { clockDuration } from '~/lib/format'
import { keepUnsent, unsentSlots } from '~/lib/watch-outbox'
import { apiData, orErrorResponse } from '~/server/api.server'
import { mobileSignin, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'
import feedStyles from '~/styles/feed.css?url'
import watchStyles from '~/styles/mobile-csm.css?url'

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: feedStyles },
  { rel: 'stylesheet', href: watchStyles },
]
export const handle = { title: 'mobile.csm.title' }

/**
 * GET /mobile/csm/watch/{sessionId} (public mobile-web; issue 15): the player of a published session the student may
 * watch. The `<video>` streams `/mobile/csm/video/{id}` (range requests, so seeking works) with the realm's
 * `csm.player.attributes.controlsList`; the slots (of the session's slot length) the student plays are reported to
 * `/mobile/csm/report/{id}` every slot period and when the page is hidden or closed (a beacon); what is not
 * acknowledged stays in the browser's storage and the next csm page sends it again, so a closed tab keeps its progress. Without a mobile session it shows the mobile sign-in, which comes back here.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  if (!realm.config) throw new Response(null, { status: 404 })
  const id = v.safeParse(Id, params.sessionId ?? '')
  if (!id.success) throw new Response(null, { status: 404 })
  const query = realmQuery(request)
  const brand = { name: realm.config.name, logo_url: realm.config.logo_url }
  const session = await mobileUser(request, context, realm)
  // Signed out (or the session ended): the mobile sign-in, back to this player after it.
  if (session.state !== 'user') return data({ brand, query, id: id.output, player: null }, { headers: { 'Cache-Control': 'no-store' } })
  const player = await orErrorResponse(apiData(session.api.csm.session[':id'].player.$get({ param: { id: id.output } })))
  return data({ brand, query, id: id.output, player: { ...player, nick: session.me.nick } }, { headers: { 'Cache-Control': 'no-store' } })
}

/** `?intent=signin`: the mobile sign-in (the same session as the list's and the feed's), answered back here. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  const id = v.safeParse(Id, params.sessionId ?? '')
  if (!realm.config || !realm.code || !id.success) throw new Response(null, { status: 404 })
  if (new URL(request.url).searchParams.get('intent') !== 'signin') throw new Response(null, { status: 400 })
  return mobileSignin(request, context, { ...realm, code: realm.code }, withQuery(`/mobile/csm/watch/${id.output}`, realmQuery(request)))
}

export default function MobileSessionPlayerRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  if (d.player) return <Player brand={d.brand} query={d.query} player={d.player} />
  return (
    <div className="mobile">
      <header className="mobile-bar">
        <BrandMark brand={d.brand} />
        <h1>{t('mobile.csm.title')}</h1>
        <span />
      </header>
      <main className="mobile-content" id="main">
        <MobileSigninForm action={withQuery(`/mobile/csm/watch/${d.id}`, d.query, 'intent=signin')} title={t('mobile.csm.signin_title')} />
      </main>
    </div>
  )
}

function Player({ brand, query, player }: { brand: { name: string; logo_url: string }; query: string; player: WatchPlayer & { nick: string } }) {
  const { t, i18n } = useTranslation()
  const video = useRef<HTMLVideoElement>(null)
  const [watched, setWatched] = useState(() => new Set(player.watched))
  /** Watched and not yet sent; `unacked` also holds what is on its way, mirrored in the browser's storage. */
  const pending = useRef(new Set<number>())
  const unacked = useRef(new Set<number>())
  const [saveError, setSaveError] = useState(false)
  const [videoError, setVideoError] = useState(false)
  const reportUrl = withQuery(`/mobile/csm/report/${player.id}`, query)
  const remember = useCallback(() => keepUnsent(player.nick, player.id, unacked.current), [player.nick, player.id])

  /**
   * Sends the slots not yet reported; a failed report puts them back for the next one. Leaving the page sends them
   * as a beacon, whose fate the page cannot learn: they stay in storage until a later report is acknowledged, and
   * the next csm page sends them again (`watch-outbox.ts`).
   */
  const flush = useCallback(
    (leaving = false) => {
      if (!pending.current.size) return
      const slots = [...pending.current].slice(0, WATCH_MAX_SLOTS)
      for (const s of slots) pending.current.delete(s)
      const body = JSON.stringify({ slots })
      if (leaving && navigator.sendBeacon?.(reportUrl, body)) return
      fetch(reportUrl, { method: 'POST', keepalive: true, headers: { 'content-type': 'application/json' }, body })
        .then((res) => {
          // A refusal (4xx) is final; a server failure is sent again.
          if (res.ok || res.status < 500) {
            for (const s of slots) unacked.current.delete(s)
            remember()
          } else for (const s of slots) pending.current.add(s)
          setSaveError(!res.ok)
        })
        .catch(() => {
          for (const s of slots) pending.current.add(s)
          setSaveError(true)
        })
    },
    [reportUrl, remember],
  )

  useEffect(() => {
    // What an earlier visit could not confirm goes first.
    for (const s of unsentSlots(player.nick, player.id)) {
      unacked.current.add(s)
      pending.current.add(s)
    }
    flush()
    const timer = setInterval(() => flush(), player.bucket * 1000)
    const leave = () => flush(true)
    const hidden = () => {
      if (document.visibilityState === 'hidden') flush(true)
    }
    window.addEventListener('pagehide', leave)
    document.addEventListener('visibilitychange', hidden)
    return () => {
      clearInterval(timer)
      window.removeEventListener('pagehide', leave)
      document.removeEventListener('visibilitychange', hidden)
      flush(true)
    }
  }, [flush, player.bucket, player.nick, player.id])

  /**
   * The slot under the playback position counts as watched. The element fires `timeupdate` while playing and once
   * where a seek lands (not for the positions a seek passes over).
   */
  const onTime = () => {
    const el = video.current
    if (!el) return
    const slot = Math.floor(el.currentTime / player.bucket)
    if (slot < 0 || slot >= player.slot_count || watched.has(slot)) return
    pending.current.add(slot)
    unacked.current.add(slot)
    remember()
    setWatched((prev) => new Set(prev).add(slot))
  }

  const progress = progressOf(watched, player.bucket, player.duration_seconds)
  const n = new Intl.NumberFormat(i18n.language)
  return (
    <div className="mobile">
      <header className="mobile-bar">
        <BrandMark brand={brand} />
        <h1>{player.title}</h1>
        <span />
      </header>
      <main className="mobile-content" id="main">
        <Link to={withQuery('/mobile/csm', query)} className="btn">
          <Icon name="home" /> {t('mobile.csm.back')}
        </Link>
        <div className="csm-player">
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a session's recording has no caption file (neither the recorder nor the upload makes one); the page's heading names it */}
          <video
            ref={video}
            src={withQuery(`/mobile/csm/video/${player.id}`, query)}
            controls
            playsInline
            preload="metadata"
            // React does not know controlsList; lower case passes it as the attribute.
            {...{ controlslist: player.controls_list || undefined }}
            aria-label={t('mobile.csm.player')}
            onTimeUpdate={onTime}
            onError={() => setVideoError(true)}
          />
        </div>
        {videoError ? (
          <p className="error" role="alert">
            {t('mobile.csm.video_error')}
          </p>
        ) : null}
        <p className="csm-progress" role="status" data-percent={progress.percent}>
          <progress max={100} value={progress.percent} aria-label={t('mobile.csm.progress_label')} />{' '}
          {t('mobile.csm.progress', {
            watched: clockDuration(progress.watched_seconds),
            duration: clockDuration(player.duration_seconds),
            percent: n.format(progress.percent),
          })}
        </p>
        {saveError ? (
          <p className="hint" role="alert">
            {t('mobile.csm.save_error')}
          </p>
        ) : null}
      </main>
    </div>
  )
}

export const ErrorBoundary = MobileCsmError
