import { percentOf, type WatchAggregate, type Watcher, type WatchableSession } from '#shared/schemas/csm-watch'

export { progressOf } from '#shared/schemas/csm-watch'

/**
 * Watching recorded sessions (issue 15, migration 0056): which slots of a session's video each user watched. A slot is
 * `bucket` seconds (the realm's `csm_vod_slot_bucket` when the session was first watched, kept on the session as
 * `watch_bucket`); watched time = the watched slots' seconds, the last slot capped at the video's duration.
 * Realm-scoped throughout.
 */

/** A slot's seconds: `bucket`, or what is left of the video for the last one (SQL over `slot`, `?b` and `?d`). */
export const SLOT_SECONDS = (bucket: string, duration: string, slot = 'slot') => `MAX(0, MIN(${bucket}, ${duration} - ${slot} * ${bucket}))`

/** Who may watch a published session: a member of its room, or a member (not banned) of its channel. */
const MEMBER_OF = (session: string) => `(
  EXISTS (SELECT 1 FROM csm_session_room sr JOIN room_member m ON m.room_id = sr.room_id AND m.realm = sr.realm
          WHERE sr.realm = ?1 AND sr.session_id = ${session}.id AND m.nick = ?2)
  OR EXISTS (SELECT 1 FROM channel_member cm WHERE cm.realm = ?1 AND cm.channel_id = ${session}.channel_id AND cm.nick = ?2 AND cm.permission <> 'banned'))`

/** The session's latest complete recording (its video). */
export const VIDEO_OF = (session: string) =>
  `(SELECT id FROM csm_recording WHERE realm = ${session}.realm AND session_id = ${session}.id AND status = 'complete' ORDER BY started_at DESC LIMIT 1)`

export type WatchTarget = {
  id: string
  title: string
  status: string
  /** The slot length in seconds (the session's own once watched, else the realm's). */
  bucket: number
  /** Whether the session's slot length is still to be fixed (no slot stored yet). */
  bucket_open: boolean
  r2_key: string
  mime: string
  size: number
  duration_seconds: number
  controls_list: string
  /** Whether `nick` is a member of the session's room or channel. */
  member: boolean
}

/** The session with its video (null without one), as `nick` sees it. */
export async function watchTarget(db: D1Database, realm: string, sessionId: string, nick: string): Promise<WatchTarget | null> {
  const row = await db
    .prepare(
      `SELECT s.id, s.title, s.status, s.watch_bucket, r.r2_key, r.mime, r.size, r.duration_seconds,
         re.csm_vod_slot_bucket AS realm_bucket, re.csm_player_controls_list AS controls_list, ${MEMBER_OF('s')} AS member
       FROM csm_session s JOIN csm_recording r ON r.id = ${VIDEO_OF('s')} JOIN realm re ON re.code = s.realm
       WHERE s.realm = ?1 AND s.id = ?3`,
    )
    .bind(realm, nick, sessionId)
    .first<Record<string, unknown>>()
  if (!row) return null
  const own = Number(row.watch_bucket)
  return {
    id: String(row.id),
    title: String(row.title),
    status: String(row.status),
    bucket: own > 0 ? own : Number(row.realm_bucket) > 0 ? Number(row.realm_bucket) : 30,
    bucket_open: own <= 0,
    r2_key: String(row.r2_key),
    mime: String(row.mime),
    size: Number(row.size),
    duration_seconds: Number(row.duration_seconds),
    controls_list: String(row.controls_list ?? ''),
    member: Number(row.member) === 1,
  }
}

/** How many slots a video of `duration` seconds has. */
export const slotCount = (duration: number, bucket: number) => Math.max(1, Math.ceil(duration / bucket))

/**
 * Stores the slots `nick` watched (a slot already stored is ignored) and fixes the session's slot length at its first
 * report. One batch: the bucket, then the rows (one statement over a JSON array, whatever the number of slots).
 */
export function recordWatchStatements(db: D1Database, realm: string, t: WatchTarget, nick: string, slots: number[], at: string): D1PreparedStatement[] {
  return [
    ...(t.bucket_open
      ? [db.prepare('UPDATE csm_session SET watch_bucket = ? WHERE realm = ? AND id = ? AND watch_bucket = 0').bind(t.bucket, realm, t.id)]
      : []),
    db
      .prepare('INSERT OR IGNORE INTO csm_watch (session_id, nick, slot, realm, watched_at) SELECT ?, ?, value, ?, ? FROM json_each(?)')
      .bind(t.id, nick, realm, at, JSON.stringify(slots)),
  ]
}

/** The slot indexes `nick` watched of a session. */
export async function watchedSlots(db: D1Database, realm: string, sessionId: string, nick: string): Promise<number[]> {
  const { results } = await db
    .prepare('SELECT slot FROM csm_watch WHERE session_id = ? AND nick = ? AND realm = ? ORDER BY slot')
    .bind(sessionId, nick, realm)
    .all<{ slot: number }>()
  return results.map((r) => r.slot)
}

/** The published sessions with a video that `nick` may watch (newest reference date first, at most 200), with their progress. */
export async function watchableSessions(db: D1Database, realm: string, nick: string): Promise<WatchableSession[]> {
  const bucket = `(CASE WHEN s.watch_bucket > 0 THEN s.watch_bucket ELSE re.csm_vod_slot_bucket END)`
  const { results } = await db
    .prepare(
      `SELECT s.id, s.title, s.reference_date, s.channel_id, s.category_ids, sr.room_id, ro.name AS room_name,
         (SELECT ch.name FROM channel ch WHERE ch.realm = s.realm AND ch.id = s.channel_id) AS channel_name, r.duration_seconds,
         (SELECT COUNT(*) FROM csm_watch w WHERE w.session_id = s.id AND w.nick = ?2 AND w.realm = ?1) AS slots,
         (SELECT COALESCE(SUM(${SLOT_SECONDS(bucket, 'r.duration_seconds', 'w.slot')}), 0) FROM csm_watch w
            WHERE w.session_id = s.id AND w.nick = ?2 AND w.realm = ?1) AS watched_seconds
       FROM csm_session s JOIN csm_recording r ON r.id = ${VIDEO_OF('s')} JOIN realm re ON re.code = s.realm
         LEFT JOIN csm_session_room sr ON sr.session_id = s.id AND sr.realm = s.realm
         LEFT JOIN room ro ON ro.id = sr.room_id AND ro.realm = s.realm
       WHERE s.realm = ?1 AND s.status = 'published' AND ${MEMBER_OF('s')}
       ORDER BY s.reference_date DESC, s.started_at DESC LIMIT 200`,
    )
    .bind(realm, nick)
    .all<Record<string, unknown>>()
  const categoryIds = [...new Set(results.flatMap((r) => JSON.parse(String(r.category_ids)) as string[]))].slice(0, 90)
  const names = new Map<string, string>()
  if (categoryIds.length) {
    const marks = categoryIds.map(() => '?').join(', ')
    const found = await db
      .prepare(
        `SELECT id, name FROM csm_category WHERE realm = ? AND id IN (${marks})
         UNION ALL SELECT id, name FROM channel_category WHERE realm = ? AND id IN (${marks})`,
      )
      .bind(realm, ...categoryIds, realm, ...categoryIds)
      .all<{ id: string; name: string }>()
    for (const c of found.results) names.set(c.id, c.name)
  }
  return results.map((r) => {
    const duration = Number(r.duration_seconds)
    const watched = Number(r.watched_seconds)
    return {
      id: String(r.id),
      title: String(r.title),
      reference_date: String(r.reference_date),
      room_id: (r.room_id as string | null) ?? null,
      room_name: (r.room_name as string | null) ?? null,
      channel_id: String(r.channel_id),
      channel_name: (r.channel_name as string | null) ?? null,
      categories: (JSON.parse(String(r.category_ids)) as string[]).map((id) => ({ id, name: names.get(id) ?? null })),
      duration_seconds: duration,
      slots: Number(r.slots),
      watched_seconds: watched,
      percent: percentOf(watched, duration),
    }
  })
}

/**
 * Who watched a session: one row per user who watched any of it (most watched first, then nick), a page of `limit`,
 * and the session's aggregate over all of them — viewers, their watched seconds summed, and their mean percentage
 * (total watched ÷ (viewers × duration)).
 */
export async function sessionWatchers(
  db: D1Database,
  realm: string,
  t: Pick<WatchTarget, 'id' | 'bucket' | 'duration_seconds'>,
  page: number,
  limit: number,
): Promise<{ items: Watcher[]; aggregate: WatchAggregate }> {
  const perUser = `SELECT w.nick, COUNT(*) AS slots, SUM(${SLOT_SECONDS('?3', '?4', 'w.slot')}) AS watched_seconds
    FROM csm_watch w WHERE w.session_id = ?2 AND w.realm = ?1 GROUP BY w.nick`
  const [rows, total] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT p.nick, p.slots, p.watched_seconds, COALESCE(u.name, '') AS name FROM (${perUser}) p
         LEFT JOIN user u ON u.realm = ?1 AND u.nick = p.nick
         ORDER BY p.watched_seconds DESC, p.nick LIMIT ?5 OFFSET ?6`,
      )
      .bind(realm, t.id, t.bucket, t.duration_seconds, limit, (page - 1) * limit),
    db
      .prepare(`SELECT COUNT(*) AS viewers, COALESCE(SUM(watched_seconds), 0) AS watched_seconds FROM (${perUser})`)
      .bind(realm, t.id, t.bucket, t.duration_seconds),
  ])
  const viewers = Number(total.results[0]?.viewers ?? 0)
  const sum = Number(total.results[0]?.watched_seconds ?? 0)
  return {
    items: rows.results.map((r) => ({
      nick: String(r.nick),
      name: String(r.name),
      slots: Number(r.slots),
      watched_seconds: Number(r.watched_seconds),
      percent: percentOf(Number(r.watched_seconds), t.duration_seconds),
    })),
    aggregate: {
      viewers,
      watched_seconds: sum,
      average_percent: viewers ? percentOf(sum / viewers, t.duration_seconds) : 0,
      duration_seconds: t.duration_seconds,
      bucket: t.bucket,
    },
  }
}

/**
 * Deletes a session's watch records and frees its slot length (the next first report fixes it again): for a
 * rerecord, whose new video's slots mean other seconds.
 */
export function deleteSessionWatchStatements(db: D1Database, realm: string, sessionId: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM csm_watch WHERE realm = ? AND session_id = ?').bind(realm, sessionId),
    db.prepare('UPDATE csm_session SET watch_bucket = 0 WHERE realm = ? AND id = ?').bind(realm, sessionId),
  ]
}
