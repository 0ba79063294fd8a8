/**
 * The sessions list's filters that are not plain column comparisons (issue 15): the room a session happened in
 * (`csm_session_room`, through its realm+room index), a category among the session's `category_ids` (a JSON array,
 * checked on the rows the list walks) and the reference-date range (plain dates, inclusive, on the
 * realm+reference_date index).
 */
import type { SessionListFilter } from '#shared/schemas/session'
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
