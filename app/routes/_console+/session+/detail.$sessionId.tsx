import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import { SessionWatchers } from '~/components/session/session-watchers'
import { RouteError } from '~/components/shell/route-error'
import { useClock, ZoneCaption } from '~/components/ui/clock'
import { clockDuration as duration, formatTime } from '~/lib/format'
import { calendarDay } from '~/lib/list-format'
import { apiData, orErrorResponse, orNull } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { SessionLifecycle } from './__session-lifecycle'
import { sessionLifecycleAction } from './__session-lifecycle.server'

export const handle = { title: 'pages.session.detail' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'session.detail')
  const session = await orErrorResponse(apiData(api.csm.session[':id'].$get({ param: { id: params.sessionId ?? '' }, query: {} })))
  // Who watched (issue 15): null when the session has no video to watch.
  const wp = new URL(request.url).searchParams.get('watchers_page') ?? ''
  const watchers = await orNull(
    apiData(api.csm.session[':id'].watchers.$get({ param: { id: session.id }, query: { page: /^[1-9]\d{0,4}$/.test(wp) ? wp : undefined } })),
  )
  return { session, watchers, can: { edit: Boolean(user.permissions.csm_session_edit), rerecord: Boolean(user.permissions.csm_session_rerecord) } }
}

/** Publish, unpublish, rerecord (issue 15, __session-lifecycle.server.ts). */
export const action = ({ request, context, params }: ActionFunctionArgs) => sessionLifecycleAction(request, context, params.sessionId ?? '')

/** A session (issue 15 `session/detail/{sessionId}`): its lifecycle actions, its metadata, its metrics (seed 002 §3) and its video. */
export default function SessionDetailRoute() {
  const { session: s, can, watchers } = useLoaderData<typeof loader>()
  const { t, i18n } = useTranslation()
  const clock = useClock()
  const n = (v: number) => new Intl.NumberFormat(i18n.language).format(v)
  const place = s.room_name ?? s.channel_name ?? (s.room_id || s.channel_id || '—')
  const participants = Object.entries(s.live_durations ?? {}).sort((a, b) => b[1] - a[1])
  const extras = Object.entries(s.extras ?? {})
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{s.title || t('session.untitled')}</h1>
          <p>
            <span className={`badge status-${s.status}`} data-status={s.status}>
              {t(`session.status.${s.status}`)}
            </span>{' '}
            <span className="badge" data-video-status={s.video_status}>
              {t('resources.csm_session.fields.video_status')}: {t(`live.session.video_status.${s.video_status}`)}
            </span>
          </p>
        </div>
        <Link to="/session" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>

      <SessionLifecycle session={s} can={can} />

      <section className="card" aria-labelledby="session-facts">
        <h2 id="session-facts">{t('session.detail.metadata')}</h2>
        <dl className="facts">
          <dt>{t('session.detail.id')}</dt>
          <dd>
            <code>{s.id}</code>
          </dd>
          <dt>{t('resources.csm_session.fields.recorded_in')}</dt>
          <dd>
            {t(`session.recorded_in.${s.recorded_in}`)} · {place}
          </dd>
          <dt>{t('session.detail.channel_topic')}</dt>
          <dd>{s.channel_topic || '—'}</dd>
          <dt>{t('resources.csm_session.fields.owner')}</dt>
          <dd>{s.owner || '—'}</dd>
          <dt>{t('session.detail.categories')}</dt>
          <dd>{s.categories.length ? s.categories.map((c) => c.name ?? c.id).join(', ') : '—'}</dd>
          <dt>{t('resources.csm_session.fields.reference_date')}</dt>
          <dd>{calendarDay(s.reference_date, undefined, undefined, clock)}</dd>
          <dt>{t('resources.csm_session.fields.started_at')}</dt>
          <dd>{formatTime(s.started_at, clock) || '—'}</dd>
          <dt>{t('session.detail.ended_at')}</dt>
          <dd>{formatTime(s.ended_at, clock) || '—'}</dd>
          {extras.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
            </Fragment>
          ))}
        </dl>
        <ZoneCaption label={(zone) => t('table.time_zone', { zone })} />
      </section>

      <section className="card" aria-labelledby="session-metrics">
        <h2 id="session-metrics">{t('session.detail.metrics')}</h2>
        <dl className="facts">
          <dt>{t('session.detail.live_duration')}</dt>
          <dd data-metric="live_seconds">{duration(s.live_seconds)}</dd>
          <dt>{t('session.detail.peak_participants')}</dt>
          <dd data-metric="peak_participants">{n(s.peak_participants)}</dd>
          <dt>{t('session.detail.chat_count')}</dt>
          <dd data-metric="chat_count">{n(s.chat_count)}</dd>
          <dt>{t('session.detail.attachment_count')}</dt>
          <dd data-metric="attachment_count">{n(s.attachment_count)}</dd>
          <dt>{t('session.detail.hand_raise_count')}</dt>
          <dd data-metric="hand_raise_count">{n(s.hand_raise_count)}</dd>
        </dl>
        <h3 id="session-participants">{t('session.detail.live_durations')}</h3>
        {participants.length ? (
          <table className="table" aria-labelledby="session-participants">
            <thead>
              <tr>
                <th scope="col">{t('session.detail.participant')}</th>
                <th scope="col" className="align-right">
                  {t('session.detail.time_live')}
                </th>
              </tr>
            </thead>
            <tbody>
              {participants.map(([nick, secs]) => (
                <tr key={nick}>
                  <td>{nick}</td>
                  <td className="align-right">{duration(secs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="hint">{t('session.detail.no_participants')}</p>
        )}
      </section>

      <section className="card" aria-labelledby="session-video">
        <h2 id="session-video">{t('session.detail.video')}</h2>
        {s.video?.status === 'complete' ? (
          // Staff watch here without counting as viewers: the stream is the students' (range requests, so seeking
          // works), the watch slots are reported by the mobile player only.
          <div className="csm-player">
            {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a session's recording has no caption file (neither the recorder nor the upload makes one) */}
            <video src={`/mobile/csm/video/${s.id}`} controls playsInline preload="metadata" aria-label={t('session.detail.player')} />
          </div>
        ) : null}
        {s.video ? (
          <dl className="facts">
            <dt>{t('resources.csm_session.fields.video_status')}</dt>
            <dd>{t(`live.session.video_status.${s.video_status}`)}</dd>
            <dt>{t('session.detail.recording')}</dt>
            <dd>
              {/* A refused file names why (the recording API's error cause); other reasons are internal. */}
              {t(`session.recording.${s.video.status}`)}
              {s.video.status === 'refused' && s.video.reason ? ` · ${t(`errors.${s.video.reason}`)}` : ''}
            </dd>
            <dt>{t('session.detail.video_duration')}</dt>
            <dd>{duration(s.video.duration_seconds)}</dd>
            <dt>{t('session.detail.video_size')}</dt>
            <dd>
              {t('session.detail.megabytes', { value: new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(s.video.size / 1_048_576) })}
            </dd>
            <dt>{t('session.detail.codecs')}</dt>
            <dd>{[s.video.video_codec, s.video.audio_codec].filter(Boolean).join(' · ') || '—'}</dd>
          </dl>
        ) : (
          <p className="hint">{t(`live.session.video_status.${s.video_status}`)}</p>
        )}
      </section>

      <SessionWatchers page={watchers} />
    </>
  )
}

export const ErrorBoundary = RouteError
