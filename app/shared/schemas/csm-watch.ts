import * as v from 'valibot'
import { Id } from './tms/common'

/**
 * Watching recorded sessions (issue 15, `mobile/csm`): the watch reports, the student's list and the staff's "who
 * watched" table. A slot is `bucket` seconds of the video (the realm's `csm_vod_slot_bucket`, default 30).
 */

/** At most this many slot indexes in one report (a report every bucket period sends one or two). */
export const WATCH_MAX_SLOTS = 200
/** The slot indexes watched since the last report (0-based; each below the video's slot count, checked on the server). */
export const WatchReport = v.object({
  slots: v.pipe(
    v.array(
      v.pipe(
        v.number('validation.integer'),
        v.integer('validation.integer'),
        v.minValue(0, 'validation.min_value'),
        v.maxValue(100_000, 'validation.max_value'),
      ),
    ),
    v.minLength(1, 'validation.min_items'),
    v.maxLength(WATCH_MAX_SLOTS, 'validation.max_items'),
  ),
})
export type WatchReport = v.InferOutput<typeof WatchReport>

export const WatchableQuery = v.object({
  room_id: v.optional(Id),
  category_id: v.optional(Id),
})
export type WatchableQuery = v.InferOutput<typeof WatchableQuery>

export const WatchersQuery = v.object({
  page: v.optional(v.pipe(v.string(), v.regex(/^\d{1,5}$/, 'validation.integer'), v.transform(Number), v.minValue(1, 'validation.min_value')), '1'),
})

/** One person's progress on one video. */
export type WatchProgress = { slots: number; watched_seconds: number; percent: number }

/** Watched seconds as a percentage of the duration, two decimals. */
export const percentOf = (seconds: number, duration: number) => (duration > 0 ? Math.round((seconds / duration) * 10_000) / 100 : 0)

/** Progress from watched slot indexes: `bucket` seconds each, the last capped at the duration (as the server counts). */
export function progressOf(slots: Iterable<number>, bucket: number, duration: number): WatchProgress {
  let count = 0
  let seconds = 0
  for (const s of slots) {
    count++
    seconds += Math.max(0, Math.min(bucket, duration - s * bucket))
  }
  return { slots: count, watched_seconds: seconds, percent: percentOf(seconds, duration) }
}

/** A published session a student may watch (`GET /api/csm/session/watchable`). */
export type WatchableSession = WatchProgress & {
  id: string
  title: string
  reference_date: string
  room_id: string | null
  room_name: string | null
  channel_id: string
  channel_name: string | null
  categories: { id: string; name: string | null }[]
  duration_seconds: number
}

/** What the player needs (`GET /api/csm/session/{id}/player`). */
export type WatchPlayer = WatchProgress & {
  id: string
  title: string
  duration_seconds: number
  bucket: number
  slot_count: number
  controls_list: string
  mime: string
  /** The slot indexes the caller already watched. */
  watched: number[]
}

/** The session's metrics over everyone who watched it: viewers, their watched time summed, their mean percentage. */
export type WatchAggregate = { viewers: number; watched_seconds: number; average_percent: number; duration_seconds: number; bucket: number }
export type Watcher = WatchProgress & { nick: string; name: string }
export type WatchersPage = { items: Watcher[]; total: number; page: number; pages: number; aggregate: WatchAggregate }
