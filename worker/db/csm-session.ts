/**
 * The sessions list's filters that are not plain column comparisons (issue 15): the room a session happened in
 * (`csm_session_room`, through its realm+room index), a category among the session's `category_ids` (a JSON array,
 * checked on the rows the list walks) and the reference-date range (plain dates, inclusive, on the
 * realm+reference_date index).
 */
import type { SessionListFilter } from '#shared/schemas/session'
import { deleteSessionWatchStatements } from './csm-watch'
import type { Scope } from './entity-rows'

export function sessionListScope(realm: string, f: SessionListFilter): Scope {
  const where = ['csm_session.realm = ?']
  const params: unknown[] = [realm]
  if (f.room_id) {
    where.push('csm_session.id IN (SELECT session_id FROM csm_session_room WHERE realm = ? AND room_id = ?)')
    params.push(realm, f.room_id)
  }
  if (f.category_id) {
    where.push('EXISTS (SELECT 1 FROM json_each(csm_session.category_ids) WHERE json_each.value = ?)')
    params.push(f.category_id)
  }
  if (f.reference_date_from) {
    where.push('csm_session.reference_date >= ?')
    params.push(f.reference_date_from)
  }
  if (f.reference_date_to) {
    where.push('csm_session.reference_date <= ?')
    params.push(f.reference_date_to)
  }
  return { where: where.join(' AND '), params }
}

/** The list's computed columns: the channel's name and the room's (a room's session names its room in csm_session_room). */
export const SESSION_LIST_COMPUTED = {
  channel_name: 'SELECT ch.name FROM channel ch WHERE ch.realm = csm_session.realm AND ch.id = csm_session.channel_id',
  room_id: 'SELECT sr.room_id FROM csm_session_room sr WHERE sr.session_id = csm_session.id',
  room_name: 'SELECT r.name FROM csm_session_room sr JOIN room r ON r.id = sr.room_id WHERE sr.session_id = csm_session.id',
}

/** What a session's detail adds to its row: channel and room names, category names, and its recording's video. */
export interface SessionDetailExtras {
  channel_name: string | null
  room_id: string | null
  room_name: string | null
  categories: { id: string; name: string | null }[]
  video: { status: string; duration_seconds: number; size: number; video_codec: string; audio_codec: string; reason: string } | null
}

export async function sessionDetailExtras(
  db: D1Database,
  realm: string,
  row: { id: string; channel_id: string; category_ids: string[] },
): Promise<SessionDetailExtras> {
  const ids = row.category_ids.slice(0, 50)
  const marks = ids.map(() => '?').join(', ')
  const [place, video, names] = await db.batch<Record<string, unknown>>([
    db
      .prepare(
        `SELECT (SELECT ch.name FROM channel ch WHERE ch.realm = ?1 AND ch.id = ?2) AS channel_name,
           (SELECT sr.room_id FROM csm_session_room sr WHERE sr.realm = ?1 AND sr.session_id = ?3) AS room_id,
           (SELECT r.name FROM csm_session_room sr JOIN room r ON r.id = sr.room_id WHERE sr.realm = ?1 AND sr.session_id = ?3) AS room_name`,
      )
      .bind(realm, row.channel_id, row.id),
    // The session's latest recording (a session has one; a refused one is kept with its reason).
    db
      .prepare(
        `SELECT status, duration_seconds, size, video_codec, audio_codec, reason FROM csm_recording
         WHERE realm = ? AND session_id = ? ORDER BY started_at DESC LIMIT 1`,
      )
      .bind(realm, row.id),
    ids.length
      ? db
          .prepare(
            `SELECT id, name FROM csm_category WHERE realm = ? AND id IN (${marks})
             UNION ALL SELECT id, name FROM channel_category WHERE realm = ? AND id IN (${marks})`,
          )
          .bind(realm, ...ids, realm, ...ids)
      : db.prepare('SELECT NULL AS id, NULL AS name WHERE 0'),
  ])
  const p = place.results[0] ?? {}
  const named = new Map(names.results.map((n) => [String(n.id), String(n.name)]))
  const v = video.results[0]
  return {
    channel_name: (p.channel_name as string | null) ?? null,
    room_id: (p.room_id as string | null) ?? null,
    room_name: (p.room_name as string | null) ?? null,
    categories: ids.map((id) => ({ id, name: named.get(id) ?? null })),
    video: v
      ? {
          status: String(v.status),
          duration_seconds: Number(v.duration_seconds),
          size: Number(v.size),
          video_codec: String(v.video_codec),
          audio_codec: String(v.audio_codec),
          reason: String(v.reason),
        }
      : null,
  }
}

/**
 * A lifecycle move of a session (publish, unpublish, rerecord; issue 15): the status changes only when it still is
 * one of `from` (and, to publish, the video is there), so a move decided on a stale read changes nothing. The
 * batch's next statement can be the audit record written only after it (`auditStatement(…, { afterChange: true })`).
 */
export function sessionMoveStatement(
  db: D1Database,
  realm: string,
  id: string,
  to: string,
  from: readonly string[],
  videoStatuses: readonly string[] | null,
  setNoVideo = false,
): D1PreparedStatement {
  const marks = (xs: readonly string[]) => xs.map(() => '?').join(', ')
  return db
    .prepare(
      `UPDATE csm_session SET status = ?${setNoVideo ? ", video_status = 'no_video'" : ''}
       WHERE realm = ? AND id = ? AND status IN (${marks(from)})${videoStatuses ? ` AND video_status IN (${marks(videoStatuses)})` : ''}`,
    )
    .bind(to, realm, id, ...from, ...(videoStatuses ?? []))
}

/**
 * The rows of a session's records: its recordings (`csm_recording`) and their parts. Derived data of the video
 * belongs here too: the watch data of issue 15 (`csm_watch`, migration 0056) is deleted with it.
 */
export function deleteSessionRecordsStatements(db: D1Database, realm: string, sessionId: string): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM csm_recording_part WHERE recording_id IN (SELECT id FROM csm_recording WHERE realm = ? AND session_id = ?)').bind(realm, sessionId),
    db.prepare('DELETE FROM csm_recording WHERE realm = ? AND session_id = ?').bind(realm, sessionId),
    // What students watched of that video (csm_watch) and its slot length.
    ...deleteSessionWatchStatements(db, realm, sessionId),
  ]
}

/**
 * Deletes a session's current records (rerecord, seed 002 §4): in one batch after `first` (the status change and its
 * audit record), the rows of `deleteSessionRecordsStatements`; then the recordings' files in R2 (an upload still open
 * is aborted). Answers the results of `first`'s statements (whether the status change took place).
 */
export async function deleteSessionRecords(
  env: Pick<Env, 'DB' | 'FILES'>,
  realm: string,
  sessionId: string,
  first: D1PreparedStatement[] = [],
): Promise<D1Result[]> {
  const { results: recordings } = await env.DB.prepare('SELECT r2_key, upload_id, status FROM csm_recording WHERE realm = ? AND session_id = ?')
    .bind(realm, sessionId)
    .all<{ r2_key: string; upload_id: string; status: string }>()
  const done = await env.DB.batch([...first, ...deleteSessionRecordsStatements(env.DB, realm, sessionId)])
  for (const r of recordings.filter((x) => x.status === 'recording' || x.status === 'assembling')) {
    await env.FILES.resumeMultipartUpload(r.r2_key, r.upload_id)
      .abort()
      .catch(() => undefined)
  }
  if (recordings.length) await env.FILES.delete(recordings.map((r) => r.r2_key))
  return done.slice(0, first.length)
}

/**
 * The realm's recording storage (issue 15, seed 002 §8): its quota (`csm_storage_quota_mb`, 0 = none) and the bytes
 * its recordings hold — complete files, and uploads still open at their declared size or the parts received so far.
 * Summed only when there is a quota (the realm+status index).
 */
export async function recordingStorage(db: D1Database, realm: string): Promise<{ quota_mb: number; used_bytes: number }> {
  const row = await db
    .prepare(
      `SELECT r.csm_storage_quota_mb AS quota_mb,
         CASE WHEN r.csm_storage_quota_mb > 0 THEN (
           SELECT COALESCE(SUM(CASE WHEN c.status = 'complete' THEN c.size
             ELSE MAX(c.expected_size, (SELECT COALESCE(SUM(p.size), 0) FROM csm_recording_part p WHERE p.recording_id = c.id)) END), 0)
           FROM csm_recording c WHERE c.realm = r.code AND c.status IN ('complete', 'recording', 'assembling')
         ) ELSE 0 END AS used_bytes
       FROM realm r WHERE r.code = ?`,
    )
    .bind(realm)
    .first<{ quota_mb: number; used_bytes: number }>()
  return { quota_mb: Number(row?.quota_mb ?? 0), used_bytes: Number(row?.used_bytes ?? 0) }
}
