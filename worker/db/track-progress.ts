import type { FollowingRoom, StudentTrack, TrackProgressItem } from '#shared/schemas/achievement'
import { DELIVERED_STATES } from '../lib/answer-state'
import { nowIso } from '../lib/tms'

/**
 * A room follows a track (issue 19; README "Goals, objectives, awards and tracks", "Rooms follow a track"): the
 * track's items in order with, per item, the publications made from its model that reach the room, the newest one
 * open now, and who completed one of them — in ONE statement per screen (the track's room, or every room of a
 * student). Parameters: ?1 realm, ?2 the student's nick (null for the teacher's view), ?3 now; the room view adds ?4 room, ?5 track.
 *
 * "Published to the room": a publication (task, lesson, survey) made from the item's model whose publish time has
 * come, targeting the room itself (or, for the student, the student as a member of it) or a room group that lists
 * it. "Completed": a task delivered (an answer in a delivered state), a lesson opened (`lesson_open`), a survey
 * answered. Only the room's current members count.
 *
 * Each part is MATERIALIZED once, CROSS JOIN puts the items first, and the unary `+` keeps the planner off the realm-wide `(realm, publish_at)` and
 * `(realm, status)` ranges: publications are found by model (`tms_task(model_id)`, `lesson_lesson(realm, model_id)`,
 * `survey_survey(realm, model_id)`), completions by publication (tests/workers/answer-plans.test.ts).
 */

const inList = (xs: readonly string[]) => xs.map((s) => `'${s}'`).join(', ')

/** A publication `p` (alias) of `table` (target table `targets`, key column `key`) reaches the item's room. */
const reaches = (targets: string, key: string, p: string) =>
  `EXISTS (SELECT 1 FROM ${targets} x WHERE x.${key} = ${p}.id AND x.realm = ?1
      AND ((x.room_id = i.room_id AND (x.nick IS NULL OR x.nick = ?2)) OR x.group_id IN (SELECT g.id FROM groups g WHERE g.room_id = i.room_id)))`

/** The shared part after `items(room_id, pos, kind, model_id)`: groups, publications, completions, the rows. */
const PROGRESS_TAIL = `
groups AS MATERIALIZED (
  SELECT g.id AS id, j.value AS room_id FROM room_group g, json_each(g.rooms) j
   WHERE g.realm = ?1 AND j.value IN (SELECT room_id FROM items)
),
pubs AS MATERIALIZED (
  SELECT i.room_id, i.pos, i.kind, t.id AS pub_id, t.publish_at,
         (t.scheduling_enabled = 1 AND t.expire_at > ?3) AS live
    FROM items i CROSS JOIN tms_task t ON t.model_id = i.model_id AND +t.realm = ?1
   WHERE i.kind = 'task_model' AND +t.publish_at <= ?3 AND ${reaches('tms_task_target', 'task_id', 't')}
  UNION ALL
  SELECT i.room_id, i.pos, i.kind, l.id, l.publish_at, (l.expire_at IS NULL OR l.expire_at > ?3)
    FROM items i CROSS JOIN lesson_lesson l ON l.realm = ?1 AND l.model_id = i.model_id
   WHERE i.kind = 'lesson' AND +l.publish_at <= ?3 AND ${reaches('lesson_lesson_target', 'lesson_id', 'l')}
  UNION ALL
  SELECT i.room_id, i.pos, i.kind, s.id, s.publish_at, (s.expire_at IS NULL OR s.expire_at > ?3)
    FROM items i CROSS JOIN survey_survey s ON s.realm = ?1 AND s.model_id = i.model_id
   WHERE i.kind = 'survey' AND +s.publish_at <= ?3 AND ${reaches('survey_survey_target', 'survey_id', 's')}
),
done AS MATERIALIZED (
  SELECT p.room_id, p.pos, a.nick FROM pubs p JOIN tms_answer a ON a.realm = ?1 AND a.task_id = p.pub_id
   WHERE p.kind = 'task_model' AND +a.status IN (${inList(DELIVERED_STATES)})
  UNION
  SELECT p.room_id, p.pos, o.nick FROM pubs p JOIN lesson_open o ON o.realm = ?1 AND o.lesson_id = p.pub_id WHERE p.kind = 'lesson'
  UNION
  SELECT p.room_id, p.pos, s.nick FROM pubs p JOIN survey_answer s ON s.realm = ?1 AND s.survey_id = p.pub_id WHERE p.kind = 'survey'
)
SELECT i.room_id, i.pos, i.kind, i.model_id, COALESCE(tm.title, lm.title, sm.title) AS title,
  (SELECT COUNT(*) FROM pubs p WHERE p.room_id = i.room_id AND p.pos = i.pos) AS published,
  (SELECT p.pub_id FROM pubs p WHERE p.room_id = i.room_id AND p.pos = i.pos AND p.live ORDER BY p.publish_at DESC LIMIT 1) AS open_id,
  (SELECT COUNT(DISTINCT d.nick) FROM done d WHERE d.room_id = i.room_id AND d.pos = i.pos AND (?2 IS NULL OR d.nick = ?2)
      AND EXISTS (SELECT 1 FROM room_member m WHERE m.room_id = i.room_id AND m.nick = d.nick)) AS completed
FROM items i
LEFT JOIN tms_model tm ON i.kind = 'task_model' AND tm.id = i.model_id AND tm.realm = ?1
LEFT JOIN lesson_model lm ON i.kind = 'lesson' AND lm.id = i.model_id AND lm.realm = ?1
LEFT JOIN survey_model sm ON i.kind = 'survey' AND sm.id = i.model_id AND sm.realm = ?1
ORDER BY i.room_id, i.pos`

/** One room's progress along a track (the teacher's view). */
export const ROOM_PROGRESS_SQL = `WITH items AS (
  SELECT ?4 AS room_id, CAST(j.key AS INTEGER) AS pos, json_extract(j.value, '$.kind') AS kind, json_extract(j.value, '$.id') AS model_id
    FROM achievement_track tr, json_each(tr.items) j
   WHERE tr.id = ?5 AND tr.realm = ?1 AND EXISTS (SELECT 1 FROM room rr WHERE rr.id = ?4 AND rr.realm = ?1 AND rr.track_id = tr.id)
),${PROGRESS_TAIL}`

/** The student's progress along the tracks of every open room they belong to that follows one. */
export const STUDENT_PROGRESS_SQL = `WITH items AS (
  SELECT r.id AS room_id, CAST(j.key AS INTEGER) AS pos, json_extract(j.value, '$.kind') AS kind, json_extract(j.value, '$.id') AS model_id
    FROM room_member rm JOIN room r ON r.id = rm.room_id AND r.realm = ?1
    JOIN achievement_track tr ON tr.id = r.track_id AND tr.realm = ?1, json_each(tr.items) j
   WHERE rm.realm = ?1 AND rm.nick = ?2 AND r.closed_at IS NULL
),${PROGRESS_TAIL}`

type Row = TrackProgressItem & { room_id: string }
const item = ({ room_id: _room, ...r }: Row): TrackProgressItem => ({ ...r, published: Number(r.published), completed: Number(r.completed) })

/** True when the realm has this track. */
export async function trackExists(db: D1Database, realm: string, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM achievement_track WHERE id = ? AND realm = ?').bind(id, realm).first()) !== null
}

/** The rooms following a track (by name, at most 500) and, when `roomId` is one of them, its progress: one batch. */
export async function trackRoomsProgress(
  db: D1Database,
  realm: string,
  trackId: string,
  roomId: string | null,
  now = nowIso(),
): Promise<{ rooms: FollowingRoom[]; items: TrackProgressItem[] | null }> {
  const [rooms, progress] = await db.batch([
    db.prepare('SELECT id, name, member_count, closed_at FROM room WHERE realm = ? AND track_id = ? ORDER BY name LIMIT 500').bind(realm, trackId),
    // Only a room following this track answers items (ROOM_PROGRESS_SQL checks it).
    db.prepare(ROOM_PROGRESS_SQL).bind(realm, null, now, roomId ?? '', trackId),
  ])
  const list = rooms.results as unknown as FollowingRoom[]
  const followed = roomId !== null && list.some((r) => r.id === roomId)
  return { rooms: list, items: followed ? (progress.results as unknown as Row[]).map(item) : null }
}

/** The tracks of the student's own open rooms with the student's progress on each item (one statement). */
export async function studentTracks(db: D1Database, realm: string, nick: string, now = nowIso()): Promise<StudentTrack[]> {
  const [rows, heads] = await db.batch([
    db.prepare(STUDENT_PROGRESS_SQL).bind(realm, nick, now),
    db
      .prepare(
        `SELECT r.id AS room_id, r.name AS room_name, tr.id AS track_id, tr.title AS track_title
           FROM room_member rm JOIN room r ON r.id = rm.room_id AND r.realm = ?1 JOIN achievement_track tr ON tr.id = r.track_id AND tr.realm = ?1
          WHERE rm.realm = ?1 AND rm.nick = ?2 AND r.closed_at IS NULL ORDER BY r.name LIMIT 50`,
      )
      .bind(realm, nick),
  ])
  const byRoom = new Map<string, TrackProgressItem[]>()
  for (const r of rows.results as unknown as Row[]) byRoom.set(r.room_id, [...(byRoom.get(r.room_id) ?? []), item(r)])
  return (heads.results as unknown as Omit<StudentTrack, 'items'>[]).map((h) => ({ ...h, items: byRoom.get(h.room_id) ?? [] }))
}

/** Records that a student opened a published lesson (the first time is kept): a track counts the lesson done. */
export function lessonOpenStatement(db: D1Database, realm: string, lessonId: string, nick: string, now = nowIso()): D1PreparedStatement {
  return db.prepare('INSERT OR IGNORE INTO lesson_open (realm, lesson_id, nick, opened_at) VALUES (?, ?, ?, ?)').bind(realm, lessonId, nick, now)
}
