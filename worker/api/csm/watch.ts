import { Hono } from 'hono'
import * as v from 'valibot'
import { WatchReport, WatchableQuery, WatchersQuery, type WatchPlayer, type WatchersPage } from '#shared/schemas/csm-watch'
import { Id } from '#shared/schemas/tms/common'
import { runBatch } from '../../db/batch'
import {
  progressOf,
  recordWatchStatements,
  sessionWatchers,
  slotCount,
  watchTarget,
  watchableSessions,
  watchedSlots,
  type WatchTarget,
} from '../../db/csm-watch'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { accepts, guarded, guardedJson } from '../../lib/guard'
import { byteRange, videoContentType } from '../../lib/range'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/**
 * Watching recorded sessions (issue 15, `mobile/csm`; mounted at /csm/session before the sessions' crud):
 * - `GET /watchable`: the caller's published sessions with a video — those of the rooms they are a member of and of
 *   the channels they are a member of (not banned) — with their progress; `?room_id=`/`?category_id=` filter.
 * - `GET /{id}/player`: what the player needs (duration, slot length, the realm's controlsList, the slots watched).
 * - `GET /{id}/video`: the video from R2, with range requests (206 + Content-Range; 200 without Range; 416).
 * - `POST /{id}/watch` `{ slots }`: the slots watched since the last report, each counted once.
 * - `GET /{id}/watchers?page=`: who watched (staff: `csm_session_get`), with the session's aggregate.
 * A student sees only a published session of their room or channel; staff holding `csm_session_get` any session of
 * the realm that has a video. Anything else — another realm's, unknown, no video — is 404.
 */

/** The session's video as the caller may see it, or 404. */
async function visibleTarget(c: Ctx, auth: Auth): Promise<WatchTarget> {
  const id = parse(v.object({ id: Id }), { id: pathParam(c, 'id') }).id
  const t = await watchTarget(c.env.DB, auth.realm, id, auth.nick)
  const staff = auth.permissions.has('csm_session_get')
  if (!t || (!staff && !(t.status === 'published' && t.member))) throw apiError(404, 'not_found', 'No such session to watch.', 'id', id)
  return t
}

const WATCHERS_PAGE = 20

export const watch = new Hono<AppEnv>()
  .get(
    '/watchable',
    accepts<{ query: { room_id?: string; category_id?: string } }>()(
      guarded({}, async (c, auth) => {
        const q = parse(WatchableQuery, c.req.query())
        const all = await watchableSessions(c.env.DB, auth.realm, auth.nick)
        const items = all.filter((s) => (!q.room_id || s.room_id === q.room_id) && (!q.category_id || s.categories.some((k) => k.id === q.category_id)))
        // The filters' choices come from every session the caller may watch, not only the filtered ones.
        const rooms = new Map(all.filter((s) => s.room_id).map((s) => [s.room_id as string, s.room_name ?? s.room_id]))
        const categories = new Map(all.flatMap((s) => s.categories).map((k) => [k.id, k.name ?? k.id]))
        return c.json({
          items,
          rooms: [...rooms].map(([id, name]) => ({ id, name: String(name) })),
          categories: [...categories].map(([id, name]) => ({ id, name })),
        })
      }),
    ),
  )
  .get(
    '/:id/player',
    guarded({}, async (c, auth) => {
      const t = await visibleTarget(c, auth)
      const watched = await watchedSlots(c.env.DB, auth.realm, t.id, auth.nick)
      const answer: WatchPlayer = {
        id: t.id,
        title: t.title,
        duration_seconds: t.duration_seconds,
        bucket: t.bucket,
        slot_count: slotCount(t.duration_seconds, t.bucket),
        controls_list: t.controls_list,
        mime: videoContentType(t.mime, t.r2_key),
        watched,
        ...progressOf(watched, t.bucket, t.duration_seconds),
      }
      return c.json(answer)
    }),
  )
  .get(
    '/:id/video',
    guarded({}, async (c, auth) => {
      const t = await visibleTarget(c, auth)
      const bucket = c.env.FILES
      const head = await bucket.head(t.r2_key)
      if (!head) throw apiError(404, 'not_found', 'The video is not in storage.', 'id', t.id)
      const size = head.size
      const range = byteRange(c.req.header('range'), size)
      const headers = new Headers({
        'Content-Type': videoContentType(t.mime, t.r2_key),
        'Accept-Ranges': 'bytes',
        'Cache-Control': 'private, no-store',
        ETag: head.httpEtag,
      })
      if (range === 'unsatisfiable') {
        headers.set('Content-Range', `bytes */${size}`)
        headers.set('Content-Type', 'application/json')
        return new Response(
          JSON.stringify({ errors: [{ field: 'range', cause: 'range_not_satisfiable', value: size, message: `The video has ${size} bytes.` }] }),
          { status: 416, headers },
        )
      }
      const object = await bucket.get(t.r2_key, range ? { range } : {})
      if (!object) throw apiError(404, 'not_found', 'The video is not in storage.', 'id', t.id)
      if (!range) {
        headers.set('Content-Length', String(size))
        return new Response(object.body, { status: 200, headers })
      }
      headers.set('Content-Length', String(range.length))
      headers.set('Content-Range', `bytes ${range.offset}-${range.offset + range.length - 1}/${size}`)
      return new Response(object.body, { status: 206, headers })
    }),
  )
  .post(
    '/:id/watch',
    guardedJson({}, WatchReport, async (c, auth, body) => {
      const t = await visibleTarget(c, auth)
      const count = slotCount(t.duration_seconds, t.bucket)
      const outside = body.slots.filter((s) => s >= count)
      if (outside.length) throw apiError(422, 'slot_out_of_range', `The video has ${count} slots (0 to ${count - 1}).`, 'slots', count - 1)
      const slots = [...new Set(body.slots)]
      const results = await runBatch(c.env.DB, recordWatchStatements(c.env.DB, auth.realm, t, auth.nick, slots, new Date().toISOString()))
      const stored = results[results.length - 1].meta.changes ?? 0
      const watched = await watchedSlots(c.env.DB, auth.realm, t.id, auth.nick)
      return c.json({ stored, ...progressOf(watched, t.bucket, t.duration_seconds) })
    }),
  )
  .get(
    '/:id/watchers',
    accepts<{ query: { page?: string } }>()(
      guarded({ all: ['csm_session_get'] }, async (c, auth) => {
        const { page } = parse(WatchersQuery, c.req.query())
        const t = await visibleTarget(c, auth)
        const { items, aggregate } = await sessionWatchers(c.env.DB, auth.realm, t, page, WATCHERS_PAGE)
        const answer: WatchersPage = { items, total: aggregate.viewers, page, pages: Math.max(1, Math.ceil(aggregate.viewers / WATCHERS_PAGE)), aggregate }
        return c.json(answer)
      }),
    ),
  )
