import type { ErrorItem } from '#shared/schemas/error'
import type { PublishInput, Task } from '#shared/schemas/tms/task'
import { taskEntity } from '#shared/schemas/tms/task'
import { decodeRow, type Scope } from '../lib/entity'
import { ruleError } from '../lib/tms'
import { existingIds } from './ids'

export interface TargetRow {
  room_id: string | null
  nick: string | null
  group_id: string | null
}

export interface TaskTarget extends TargetRow {
  room_name: string | null
  group_name: string | null
}

export async function getTask(db: D1Database, realm: string, id: string): Promise<Task | null> {
  const row = await db.prepare('SELECT * FROM tms_task_view WHERE id = ? AND realm = ?').bind(id, realm).first<Record<string, unknown>>()
  return row ? decodeRow(taskEntity, row) : null
}

export async function taskTargets(db: D1Database, realm: string, taskId: string): Promise<TaskTarget[]> {
  const { results } = await db
    .prepare(
      `SELECT x.room_id, x.nick, x.group_id, r.name AS room_name, g.name AS group_name FROM tms_task_target x
       LEFT JOIN room r ON r.id = x.room_id LEFT JOIN room_group g ON g.id = x.group_id
       WHERE x.realm = ? AND x.task_id = ? ORDER BY room_name, x.nick, group_name`,
    )
    .bind(realm, taskId)
    .all<TaskTarget>()
  return results
}

/**
 * The target rows of a publication, each checked against the realm: rooms and groups must exist, and a member must
 * belong to the room named with them. Problems come back as error items at the field of the target list.
 */
export async function publicationTargets(
  db: D1Database,
  realm: string,
  p: Pick<PublishInput, 'publication_type' | 'rooms' | 'members' | 'groups'>,
): Promise<{ rows: TargetRow[]; problems: ErrorItem[] }> {
  const problems: ErrorItem[] = []
  if (p.publication_type === 'group') {
    const found = await existingIds(db, 'room_group', realm, p.groups)
    for (const id of p.groups) if (!found.has(id)) problems.push(ruleError('groups', 'validation.tms.unknown_group', id))
    return { rows: p.groups.map((group_id) => ({ room_id: null, nick: null, group_id })), problems }
  }
  if (p.publication_type === 'all') {
    const found = await existingIds(db, 'room', realm, p.rooms)
    for (const id of p.rooms) if (!found.has(id)) problems.push(ruleError('rooms', 'validation.tms.unknown_room', id))
    return { rows: p.rooms.map((room_id) => ({ room_id, nick: null, group_id: null })), problems }
  }
  const rooms = [...new Set(p.members.map((m) => m.room))]
  const members = new Set<string>()
  for (let i = 0; i < rooms.length; i += 90) {
    const chunk = rooms.slice(i, i + 90)
    const { results } = await db
      .prepare(`SELECT room_id, nick FROM room_member WHERE realm = ? AND room_id IN (${chunk.map(() => '?').join(', ')})`)
      .bind(realm, ...chunk)
      .all<{ room_id: string; nick: string }>()
    for (const r of results) members.add(`${r.room_id}/${r.nick}`)
  }
  for (const m of p.members) if (!members.has(`${m.room}/${m.nick}`)) problems.push(ruleError('members', 'validation.tms.not_member', `${m.room}/${m.nick}`))
  return { rows: p.members.map((m) => ({ room_id: m.room, nick: m.nick, group_id: null })), problems }
}

/** True when the task reaches the room: directly, through one of its members, or through a group holding it. */
export async function taskReachesRoom(db: D1Database, realm: string, taskId: string, roomId: string): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 FROM tms_task_target x WHERE x.realm = ?1 AND x.task_id = ?2 AND (x.room_id = ?3
         OR x.group_id IN (SELECT g.id FROM room_group g, json_each(g.rooms) j WHERE g.realm = ?1 AND j.value = ?3)) LIMIT 1`,
    )
    .bind(realm, taskId, roomId)
    .first()
  return row !== null
}

/** Tasks reaching a room (room filter of the task list). */
export function roomFilter(roomId: string | undefined) {
  if (!roomId?.trim()) return undefined
  return {
    where: `id IN (SELECT x.task_id FROM tms_task_target x WHERE x.room_id = ? OR x.group_id IN (SELECT g.id FROM room_group g, json_each(g.rooms) j WHERE j.value = ?))`,
    params: [roomId.trim(), roomId.trim()],
  }
}

/** A new task row (its columns as given) and its target rows. */
export function insertTaskStatements(
  db: D1Database,
  realm: string,
  row: Record<string, unknown> & { id: string },
  targets: TargetRow[],
): D1PreparedStatement[] {
  const cols = Object.keys(row)
  return [
    db.prepare(`INSERT INTO tms_task (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(...Object.values(row)),
    ...targetStatements(db, 'tms_task_target', 'task_id', realm, row.id, targets),
  ]
}

/** The target rows of a publication (a task's or a lesson's: the target table and its publication column). */
export function targetStatements(
  db: D1Database,
  table: 'tms_task_target' | 'lesson_lesson_target' | 'survey_survey_target',
  key: 'task_id' | 'lesson_id' | 'survey_id',
  realm: string,
  id: string,
  targets: TargetRow[],
): D1PreparedStatement[] {
  return targets.map((t) =>
    db.prepare(`INSERT INTO ${table} (${key}, realm, room_id, nick, group_id) VALUES (?, ?, ?, ?, ?)`).bind(id, realm, t.room_id, t.nick, t.group_id),
  )
}

/** Changed columns of a task (values already in their stored form). */
export function updateTaskStatement(db: D1Database, realm: string, id: string, values: Record<string, unknown>): D1PreparedStatement {
  const cols = Object.keys(values)
  return db.prepare(`UPDATE tms_task SET ${cols.map((k) => `${k} = ?`).join(', ')} WHERE id = ? AND realm = ?`).bind(...Object.values(values), id, realm)
}

/** Removes a task (its targets and tokens go with it). */
export function deleteTaskStatement(db: D1Database, realm: string, id: string): D1PreparedStatement {
  return db.prepare('DELETE FROM tms_task WHERE id = ? AND realm = ?').bind(id, realm)
}

/** The tokens of a task in a room, newest first (rows of tms_token_view, undecoded). */
export async function taskRoomTokens(db: D1Database, realm: string, taskId: string, roomId: string): Promise<Record<string, unknown>[]> {
  const { results } = await db
    .prepare('SELECT * FROM tms_token_view WHERE realm = ? AND task_id = ? AND room_id = ? ORDER BY created_at DESC, id')
    .bind(realm, taskId, roomId)
    .all<Record<string, unknown>>()
  return results
}

/** Revokes the live tokens of a task in a room and adds a new one (UNIQUE code per realm: the batch fails on a clash). */
export function replaceTokenStatements(
  db: D1Database,
  realm: string,
  t: { id: string; taskId: string; roomId: string; code: string; by: string; at: string },
): D1PreparedStatement[] {
  return [
    db
      .prepare('UPDATE tms_token SET revoked_at = ? WHERE realm = ? AND task_id = ? AND room_id = ? AND revoked_at IS NULL')
      .bind(t.at, realm, t.taskId, t.roomId),
    db
      .prepare('INSERT INTO tms_token (id, realm, task_id, room_id, code, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .bind(t.id, realm, t.taskId, t.roomId, t.code, t.by, t.at),
  ]
}

/**
 * Tasks of the realm a list shows: all of them (`nick` null), or those `nick` published and those reaching rooms
 * they are a member of.
 */
export function visibleTasksScope(realm: string, nick: string | null): Scope {
  if (nick === null) return { where: 'realm = ?', params: [realm] }
  return {
    where: `realm = ? AND (created_by = ? OR id IN (SELECT x.task_id FROM tms_task_target x JOIN room_member rm ON rm.room_id = x.room_id WHERE rm.realm = ? AND rm.nick = ?))`,
    params: [realm, nick, realm, nick],
  }
}
