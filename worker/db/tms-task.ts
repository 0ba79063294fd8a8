import type { Task } from '#shared/schemas/tms/task'
import { taskEntity } from '#shared/schemas/tms/task'
import type { Scope } from '../lib/entity'
import { TASK_TABLES, getPublished, publishedTargets, type TaskTarget } from './publication'

export async function getTask(db: D1Database, realm: string, id: string): Promise<Task | null> {
  return getPublished(db, TASK_TABLES, taskEntity, realm, id)
}

export const taskTargets = (db: D1Database, realm: string, taskId: string): Promise<TaskTarget[]> => publishedTargets(db, TASK_TABLES, realm, taskId)

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

/** A new task row (its columns as given; its targets are every publication's, `./publication`). */
export function insertTaskStatement(db: D1Database, row: Record<string, unknown>): D1PreparedStatement {
  const cols = Object.keys(row)
  return db.prepare(`INSERT INTO tms_task (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).bind(...Object.values(row))
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
