/**
 * Published content (tasks, lessons, surveys; seed 001 §3 "Publication"): a model's copy reaching rooms, room
 * members or room groups between two dates. Each published kind declares its tables once (`PublishedTables`); the
 * SQL of its targets (checked, written, replaced, read with names), the list's room filter and the read of one
 * publication are the same for every kind and live here.
 */
import type { ErrorItem } from '#shared/schemas/error'
import type { EntityDescriptor } from '#shared/schemas/entity'
import type { PublicationTargetsInput } from '#shared/schemas/publication'
import { decodeRow } from './entity-rows'
import { existingIds, rowsWhereIn } from './ids'
import { ruleError } from '../lib/tms'

/** A published kind's tables: the base table written, the view read (status, room names), the target table and its key. */
export interface PublishedTables {
  table: 'tms_task' | 'lesson_lesson' | 'survey_survey'
  view: 'tms_task_view' | 'lesson_lesson_view' | 'survey_survey_view'
  targets: 'tms_task_target' | 'lesson_lesson_target' | 'survey_survey_target'
  key: 'task_id' | 'lesson_id' | 'survey_id'
}

export const TASK_TABLES = { table: 'tms_task', view: 'tms_task_view', targets: 'tms_task_target', key: 'task_id' } as const satisfies PublishedTables
export const LESSON_TABLES = {
  table: 'lesson_lesson',
  view: 'lesson_lesson_view',
  targets: 'lesson_lesson_target',
  key: 'lesson_id',
} as const satisfies PublishedTables
export const SURVEY_TABLES = {
  table: 'survey_survey',
  view: 'survey_survey_view',
  targets: 'survey_survey_target',
  key: 'survey_id',
} as const satisfies PublishedTables

export interface TargetRow {
  room_id: string | null
  nick: string | null
  group_id: string | null
}

export interface TaskTarget extends TargetRow {
  room_name: string | null
  group_name: string | null
}

/** One publication of the realm as its view answers it (null when the realm has none with that id). */
export async function getPublished<T extends Record<string, unknown>>(
  db: D1Database,
  tables: PublishedTables,
  entity: EntityDescriptor<T>,
  realm: string,
  id: string,
): Promise<T | null> {
  const row = await db.prepare(`SELECT * FROM ${tables.view} WHERE id = ? AND realm = ?`).bind(id, realm).first<Record<string, unknown>>()
  return row ? decodeRow(entity, row) : null
}

/** A publication's targets with room and group names. */
export async function publishedTargets(db: D1Database, tables: PublishedTables, realm: string, id: string): Promise<TaskTarget[]> {
  const { results } = await db
    .prepare(
      `SELECT x.room_id, x.nick, x.group_id, r.name AS room_name, g.name AS group_name FROM ${tables.targets} x
       LEFT JOIN room r ON r.id = x.room_id LEFT JOIN room_group g ON g.id = x.group_id
       WHERE x.realm = ? AND x.${tables.key} = ? ORDER BY room_name, x.nick, group_name`,
    )
    .bind(realm, id)
    .all<TaskTarget>()
  return results
}

/**
 * The target rows of a publication, each checked against the realm: rooms and groups must exist, and a member must
 * belong to the room named with them. Problems come back as error items at the field of the target list.
 */
export async function publicationTargets(db: D1Database, realm: string, p: PublicationTargetsInput): Promise<{ rows: TargetRow[]; problems: ErrorItem[] }> {
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
  const rows = await rowsWhereIn<{ room_id: string; nick: string }>(db, 'SELECT room_id, nick FROM room_member', 'room_id', realm, rooms)
  const members = new Set(rows.map((r) => `${r.room_id}/${r.nick}`))
  for (const m of p.members) if (!members.has(`${m.room}/${m.nick}`)) problems.push(ruleError('members', 'validation.tms.not_member', `${m.room}/${m.nick}`))
  return { rows: p.members.map((m) => ({ room_id: m.room, nick: m.nick, group_id: null })), problems }
}

/** The target rows of a new publication. */
export function targetStatements(db: D1Database, tables: PublishedTables, realm: string, id: string, targets: TargetRow[]): D1PreparedStatement[] {
  return targets.map((t) =>
    db
      .prepare(`INSERT INTO ${tables.targets} (${tables.key}, realm, room_id, nick, group_id) VALUES (?, ?, ?, ?, ?)`)
      .bind(id, realm, t.room_id, t.nick, t.group_id),
  )
}

/** Replaces a publication's targets (the statements to run in the change's batch). */
export function replaceTargetStatements(db: D1Database, tables: PublishedTables, realm: string, id: string, targets: TargetRow[]): D1PreparedStatement[] {
  return [
    db.prepare(`DELETE FROM ${tables.targets} WHERE realm = ? AND ${tables.key} = ?`).bind(realm, id),
    ...targetStatements(db, tables, realm, id, targets),
  ]
}

/** Publications reaching a room directly, through one of its members, or through a group holding it (the lists' room filter). */
export function roomFilter(tables: PublishedTables, roomId: string | undefined) {
  if (!roomId?.trim()) return undefined
  return {
    where: `id IN (SELECT x.${tables.key} FROM ${tables.targets} x WHERE x.room_id = ? OR x.group_id IN (SELECT g.id FROM room_group g, json_each(g.rooms) j WHERE j.value = ?))`,
    params: [roomId.trim(), roomId.trim()],
  }
}
