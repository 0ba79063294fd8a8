import type { LiveSessionEnd } from '#shared/schemas/channel-live'

/**
 * Recordings of live sessions (issue 20 "Recording", migration 0021): the recording, its parts, and the `csm_session`
 * it feeds. Realm-scoped. See worker/api/csm/recording.ts for the flow.
 */

export type RecordingTarget = 'channel' | 'room'
export type RecordingStatus = 'recording' | 'assembling' | 'complete' | 'refused' | 'aborted'

export type RecordingRow = {
  id: string
  realm: string
  target: RecordingTarget
  target_id: string
  session_id: string
  recorder: string
  r2_key: string
  upload_id: string
  part_size: number
  mime: string
  status: RecordingStatus
  reason: string
  size: number
  duration_seconds: number
  video_codec: string
  audio_codec: string
  live_session_id: string
  /** 'live' (the browser recorder of a live session) or 'upload' (a file uploaded with session/create, migration 0052). */
  source: 'live' | 'upload'
  /** An upload's declared size in bytes (0: a live recording's, unknown until it stops). */
  expected_size: number
  started_at: string
  completed_at: string | null
}

export type RecordingPart = { idx: number; etag: string; size: number }

/** The realm's recording settings (seed 002 "Recording (csm)"). */
export type RecordingSettings = {
  csm_channel_enable: number
  csm_room_enable: number
  csm_max_duration: number
  csm_max_idle_time: number
  csm_must_record: number
}

export function recordingSettings(db: D1Database, realm: string): Promise<RecordingSettings | null> {
  return db
    .prepare('SELECT csm_channel_enable, csm_room_enable, csm_max_duration, csm_max_idle_time, csm_must_record FROM realm WHERE code = ?')
    .bind(realm)
    .first<RecordingSettings>()
}

export function getRecording(db: D1Database, realm: string, id: string): Promise<RecordingRow | null> {
  return db.prepare('SELECT * FROM csm_recording WHERE realm = ? AND id = ?').bind(realm, id).first<RecordingRow>()
}

export async function listRecordingParts(db: D1Database, id: string): Promise<RecordingPart[]> {
  const { results } = await db.prepare('SELECT idx, etag, size FROM csm_recording_part WHERE recording_id = ? ORDER BY idx').bind(id).all<RecordingPart>()
  return results
}

export function findRecordingPart(db: D1Database, id: string, idx: number): Promise<RecordingPart | null> {
  return db.prepare('SELECT idx, etag, size FROM csm_recording_part WHERE recording_id = ? AND idx = ?').bind(id, idx).first<RecordingPart>()
}

/** A received part; the same index received again keeps its first row (the resend is stored once). */
export function insertRecordingPartStatement(db: D1Database, id: string, part: RecordingPart): D1PreparedStatement {
  return db
    .prepare('INSERT OR IGNORE INTO csm_recording_part (recording_id, idx, etag, size, created_at) VALUES (?, ?, ?, ?, ?)')
    .bind(id, part.idx, part.etag, part.size, new Date().toISOString())
}

/**
 * A new recording and the session it feeds: a `csm_session` row (status 'started', no video yet; a room's also named
 * by `csm_session_room`) and the `csm_recording` row, in one batch.
 */
export function insertRecordingStatements(
  db: D1Database,
  rec: Pick<RecordingRow, 'id' | 'realm' | 'target' | 'target_id' | 'session_id' | 'recorder' | 'r2_key' | 'upload_id' | 'part_size' | 'mime' | 'started_at'>,
  session: { title: string; owner: string; topic: string; category_id: string | null },
): D1PreparedStatement[] {
  const room = rec.target === 'room'
  const statements = [
    db
      .prepare(
        `INSERT INTO csm_session (id, realm, title, owner, channel_id, channel_topic, category_ids, reference_date, recorded_in, status, video_status,
           started_at, ended_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'started', 'no_video', ?, '', ?)`,
      )
      .bind(
        rec.session_id,
        rec.realm,
        session.title,
        session.owner,
        room ? '' : rec.target_id,
        session.topic,
        JSON.stringify(session.category_id ? [session.category_id] : []),
        rec.started_at.slice(0, 10),
        room ? 'room' : 'live',
        rec.started_at,
        rec.started_at,
      ),
    db
      .prepare(
        `INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, started_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(rec.id, rec.realm, rec.target, rec.target_id, rec.session_id, rec.recorder, rec.r2_key, rec.upload_id, rec.part_size, rec.mime, rec.started_at),
  ]
  if (room) {
    statements.push(
      db
        .prepare('INSERT INTO csm_session_room (session_id, realm, room_id, started_at) VALUES (?, ?, ?, ?)')
        .bind(rec.session_id, rec.realm, rec.target_id, rec.started_at),
    )
  }
  return statements
}

/** Claims the assembly of a recording still receiving parts: true for exactly one caller. */
export async function claimAssembly(db: D1Database, realm: string, id: string): Promise<boolean> {
  const res = await db.prepare("UPDATE csm_recording SET status = 'assembling' WHERE realm = ? AND id = ? AND status = 'recording'").bind(realm, id).run()
  return (res.meta.changes ?? 0) > 0
}

/** An assembly that could not run (R2 failed): the recording takes parts again. */
export function releaseAssemblyStatement(db: D1Database, realm: string, id: string): D1PreparedStatement {
  return db.prepare("UPDATE csm_recording SET status = 'recording' WHERE realm = ? AND id = ? AND status = 'assembling'").bind(realm, id)
}

/**
 * The validated recording: complete, with what its container says; its session has the video ('processed') and
 * waits for publication ('pending', issue 15).
 */
export function completeRecordingStatements(
  db: D1Database,
  rec: Pick<RecordingRow, 'realm' | 'id' | 'session_id'>,
  video: { size: number; duration_seconds: number; video_codec: string; audio_codec: string },
): D1PreparedStatement[] {
  const now = new Date().toISOString()
  return [
    db
      .prepare(
        `UPDATE csm_recording SET status = 'complete', size = ?, duration_seconds = ?, video_codec = ?, audio_codec = ?, completed_at = ?
         WHERE realm = ? AND id = ?`,
      )
      .bind(video.size, video.duration_seconds, video.video_codec, video.audio_codec, now, rec.realm, rec.id),
    db
      .prepare(
        `UPDATE csm_session SET status = 'pending', video_status = 'processed', ended_at = CASE WHEN ended_at = '' THEN ? ELSE ended_at END
         WHERE realm = ? AND id = ?`,
      )
      .bind(now, rec.realm, rec.session_id),
  ]
}

/**
 * A recording that ends without a video: refused by validation (`reason` its cause) or aborted. Its session keeps no
 * video; once the party handed over the call's metrics it is 'finished' like an unrecorded one.
 */
export function endRecordingStatements(
  db: D1Database,
  rec: Pick<RecordingRow, 'realm' | 'id' | 'session_id'>,
  status: 'refused' | 'aborted',
  reason: string,
  size = 0,
): D1PreparedStatement[] {
  const now = new Date().toISOString()
  return [
    db
      .prepare('UPDATE csm_recording SET status = ?, reason = ?, size = ?, completed_at = ? WHERE realm = ? AND id = ?')
      .bind(status, reason, size, now, rec.realm, rec.id),
    db
      .prepare(
        `UPDATE csm_session SET video_status = 'no_video', status = CASE WHEN ended_by <> '' OR live_seconds > 0 THEN 'finished' ELSE status END,
           ended_at = CASE WHEN ended_at = '' THEN ? ELSE ended_at END
         WHERE realm = ? AND id = ?`,
      )
      .bind(now, rec.realm, rec.session_id),
    // A session made by hand exists only for its upload: refused or given up, it goes (with its room link).
    db.prepare(`DELETE FROM csm_session_room WHERE realm = ?1 AND session_id = ?2 AND ${UPLOADED_BY}`).bind(rec.realm, rec.session_id, rec.id),
    db.prepare(`DELETE FROM csm_session WHERE realm = ?1 AND id = ?2 AND ${UPLOADED_BY}`).bind(rec.realm, rec.session_id, rec.id),
  ]
}

/** The condition (binds ?1 realm, ?3 recording id) that the recording is an upload (its session was made by hand). */
const UPLOADED_BY = "EXISTS (SELECT 1 FROM csm_recording WHERE realm = ?1 AND id = ?3 AND source = 'upload')"

/**
 * A session made by hand (session/create) and the upload of its recording: the `csm_session` row (status 'created',
 * no video, `recorded_in` 'upload'; a room's also named by `csm_session_room`) and the `csm_recording` row (source
 * 'upload'), in one batch. Completing the upload gives the session its video ('pending', 'processed').
 */
export function insertUploadStatements(
  db: D1Database,
  rec: Pick<
    RecordingRow,
    'id' | 'realm' | 'target' | 'target_id' | 'session_id' | 'recorder' | 'r2_key' | 'upload_id' | 'part_size' | 'mime' | 'started_at' | 'expected_size'
  >,
  session: { title: string; category_ids: string[]; reference_date: string; extras: Record<string, string> },
): D1PreparedStatement[] {
  const room = rec.target === 'room'
  return [
    db
      .prepare(
        `INSERT INTO csm_session (id, realm, title, owner, channel_id, channel_topic, category_ids, reference_date, recorded_in, extras, status, video_status,
           started_at, ended_at, created_at)
         VALUES (?, ?, ?, ?, ?, '', ?, ?, 'upload', ?, 'created', 'no_video', ?, '', ?)`,
      )
      .bind(
        rec.session_id,
        rec.realm,
        session.title,
        rec.recorder,
        room ? '' : rec.target_id,
        JSON.stringify(session.category_ids),
        session.reference_date,
        JSON.stringify(session.extras),
        rec.started_at,
        rec.started_at,
      ),
    db
      .prepare(
        `INSERT INTO csm_recording (id, realm, target, target_id, session_id, recorder, r2_key, upload_id, part_size, mime, started_at, source, expected_size)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'upload', ?)`,
      )
      .bind(
        rec.id,
        rec.realm,
        rec.target,
        rec.target_id,
        rec.session_id,
        rec.recorder,
        rec.r2_key,
        rec.upload_id,
        rec.part_size,
        rec.mime,
        rec.started_at,
        rec.expected_size,
      ),
    ...(room
      ? [
          db
            .prepare('INSERT INTO csm_session_room (session_id, realm, room_id, started_at) VALUES (?, ?, ?, ?)')
            .bind(rec.session_id, rec.realm, rec.target_id, rec.started_at),
        ]
      : []),
  ]
}

/** Which of these category ids are the realm's (session categories, or the channel categories live sessions carry). */
export async function knownSessionCategories(db: D1Database, realm: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set()
  const marks = ids.map(() => '?').join(', ')
  const { results } = await db
    .prepare(`SELECT id FROM csm_category WHERE realm = ? AND id IN (${marks}) UNION SELECT id FROM channel_category WHERE realm = ? AND id IN (${marks})`)
    .bind(realm, ...ids, realm, ...ids)
    .all<{ id: string }>()
  return new Set(results.map((r) => r.id))
}

/** How long a recording may go without a part before the hourly cleanup takes it for abandoned (the browser closed). */
export const RECORDING_ABANDONED_MS = 6 * 3600_000

/**
 * Aborts recordings abandoned while receiving parts (none for 6 hours): their R2 multipart uploads are aborted (R2
 * keeps unfinished uploads for days otherwise) and their sessions keep no video. Runs in the hourly cron; answers how many.
 */
export async function abortAbandonedRecordings(env: Pick<Env, 'DB' | 'FILES'>, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - RECORDING_ABANDONED_MS).toISOString()
  const { results } = await env.DB.prepare(
    `SELECT * FROM csm_recording r WHERE status = 'recording' AND started_at < ?1
       AND NOT EXISTS (SELECT 1 FROM csm_recording_part p WHERE p.recording_id = r.id AND p.created_at >= ?1) LIMIT 100`,
  )
    .bind(cutoff)
    .all<RecordingRow>()
  for (const rec of results) {
    await env.FILES.resumeMultipartUpload(rec.r2_key, rec.upload_id)
      .abort()
      .catch(() => undefined)
    await env.DB.batch(endRecordingStatements(env.DB, rec, 'aborted', 'abandoned'))
  }
  return results.length
}

/** How early a recording may start before the party's session did (two machines' clocks) and still belong to it. */
const CLOCK_SLACK_MS = 60_000

/**
 * The live party's hand-over of an ended session, for a channel or room that recorded during it: every recording of
 * that channel or room started within the session (and not yet matched to another) receives the call's metrics in
 * its own session row, and is marked with the party's session id. The unrecorded session's insert
 * (`insertLiveSessionStatement`, `insertRoomSessionStatements`) runs after these and stores nothing when a recording
 * took the metrics. A retried hand-over changes nothing (the recordings carry its id). Run first in one batch.
 */
export function liveSessionHandOverStatements(
  db: D1Database,
  realm: string,
  target: RecordingTarget,
  targetId: string,
  s: LiveSessionEnd,
): D1PreparedStatement[] {
  const from = new Date(s.started_at - CLOCK_SLACK_MS).toISOString()
  const to = new Date(s.ended_at).toISOString()
  const within = `realm = ? AND target = ? AND target_id = ? AND source = 'live' AND live_session_id = '' AND started_at >= ? AND started_at <= ?`
  return [
    db
      .prepare(
        `UPDATE csm_session SET channel_topic = ?, ended_at = ?, ended_by = ?, live_seconds = ?, live_durations = ?, peak_participants = ?,
           chat_count = ?, attachment_count = ?, hand_raise_count = ?,
           status = CASE WHEN video_status = 'processed' THEN 'pending'
                         WHEN EXISTS (SELECT 1 FROM csm_recording r WHERE r.session_id = csm_session.id AND r.status IN ('recording', 'assembling')) THEN status
                         ELSE 'finished' END
         WHERE realm = ? AND id IN (SELECT session_id FROM csm_recording WHERE ${within})`,
      )
      .bind(
        s.topic,
        to,
        s.ended_by,
        Math.max(0, Math.round((s.ended_at - s.started_at) / 1000)),
        JSON.stringify(s.live_durations),
        s.peak_participants,
        s.chat_count,
        s.attachment_count,
        s.hand_raise_count,
        realm,
        realm,
        target,
        targetId,
        from,
        to,
      ),
    db.prepare(`UPDATE csm_recording SET live_session_id = ? WHERE ${within}`).bind(s.id, realm, target, targetId, from, to),
  ]
}

/** The condition an unrecorded session's insert takes (binds: realm, party session id): no recording took its metrics. */
export const UNRECORDED = 'NOT EXISTS (SELECT 1 FROM csm_recording WHERE realm = ? AND live_session_id = ?)'
