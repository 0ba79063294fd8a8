import type { RoomMember } from '#shared/schemas/room'

/** The room list's computed `category_name`: the name of the row's room category (null without one). */
export const ROOM_CATEGORY_NAME_COLUMN = 'SELECT k.name FROM room_category k WHERE k.realm = "room".realm AND k.id = "room".category_id'

/** True when another row of `table` in the realm has this name (case-insensitive); `self` is the row being edited. */
export async function roomNameTaken(db: D1Database, realm: string, table: 'room' | 'room_group', name: string, self?: string): Promise<boolean> {
  const twin = await db
    .prepare(`SELECT id FROM ${table} WHERE realm = ? AND lower(name) = lower(?) AND id IS NOT ?`)
    .bind(realm, name, self ?? null)
    .first()
  return twin !== null
}

/** How many task targets name the room (`room_id`) or the room group (`group_id`). */
export async function taskTargetsOf(db: D1Database, realm: string, column: 'room_id' | 'group_id', id: string): Promise<number> {
  const row = await db.prepare(`SELECT COUNT(*) AS n FROM tms_task_target WHERE realm = ? AND ${column} = ?`).bind(realm, id).first<{ n: number }>()
  return row?.n ?? 0
}

/** How many room groups list the room. */
export async function groupsHoldingRoom(db: D1Database, realm: string, roomId: string): Promise<number> {
  const row = await db
    .prepare('SELECT COUNT(*) AS n FROM room_group g, json_each(g.rooms) j WHERE g.realm = ? AND j.value = ?')
    .bind(realm, roomId)
    .first<{ n: number }>()
  return row?.n ?? 0
}

/** The realm's `max_rooms` (-1: no limit) and how many rooms it has. */
export async function roomCountAndLimit(db: D1Database, realm: string): Promise<{ max: number; n: number } | null> {
  return db
    .prepare('SELECT r.max_rooms AS max, (SELECT COUNT(*) FROM room WHERE realm = r.code) AS n FROM realm r WHERE r.code = ?')
    .bind(realm)
    .first<{ max: number; n: number }>()
}

export function findRoom(db: D1Database, realm: string, id: string): Promise<{ id: string; name: string } | null> {
  return db.prepare('SELECT id, name FROM room WHERE realm = ? AND id = ?').bind(realm, id).first<{ id: string; name: string }>()
}

/** The room's members with their names, by name. */
export async function listRoomMembers(db: D1Database, realm: string, roomId: string): Promise<RoomMember[]> {
  const { results } = await db
    .prepare(
      'SELECT m.room_id, m.nick, u.name, m.added_at, m.added_by FROM room_member m JOIN user u ON u.realm = m.realm AND u.nick = m.nick WHERE m.realm = ? AND m.room_id = ? ORDER BY u.name, m.nick',
    )
    .bind(realm, roomId)
    .all<RoomMember>()
  return results
}

export async function isRoomMember(db: D1Database, realm: string, roomId: string, nick: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM room_member WHERE realm = ? AND room_id = ? AND nick = ?').bind(realm, roomId, nick).first()) !== null
}

/** The realm's `max_users_per_room` (-1: no limit) and how many members the room has. */
export async function roomMemberCountAndLimit(db: D1Database, realm: string, roomId: string): Promise<{ max: number; n: number } | null> {
  return db
    .prepare('SELECT r.max_users_per_room AS max, (SELECT COUNT(*) FROM room_member WHERE realm = r.code AND room_id = ?) AS n FROM realm r WHERE r.code = ?')
    .bind(roomId, realm)
    .first<{ max: number; n: number }>()
}

export function insertRoomMemberStatement(db: D1Database, realm: string, roomId: string, nick: string, by: string): D1PreparedStatement {
  return db
    .prepare('INSERT INTO room_member (realm, room_id, nick, added_at, added_by) VALUES (?, ?, ?, ?, ?)')
    .bind(realm, roomId, nick, new Date().toISOString(), by)
}

export function deleteRoomMemberStatement(db: D1Database, realm: string, roomId: string, nick: string): D1PreparedStatement {
  return db.prepare('DELETE FROM room_member WHERE realm = ? AND room_id = ? AND nick = ?').bind(realm, roomId, nick)
}

/** Every room category of the realm (a realm holds at most 10,000; the tree is checked in memory). */
export async function allRoomCategories(db: D1Database, realm: string): Promise<Record<string, unknown>[]> {
  const { results } = await db.prepare('SELECT * FROM room_category WHERE realm = ? LIMIT 10000').bind(realm).all<Record<string, unknown>>()
  return results
}

/** The name of one sub-category of `parent`, or null when it has none. */
export async function firstChildCategory(db: D1Database, realm: string, parent: string): Promise<string | null> {
  const row = await db.prepare('SELECT name FROM room_category WHERE realm = ? AND parent = ? LIMIT 1').bind(realm, parent).first<{ name: string }>()
  return row?.name ?? null
}

/** The room of the realm with this exact name, or null. */
export function findRoomByName(db: D1Database, realm: string, name: string): Promise<{ id: string; name: string } | null> {
  return db.prepare('SELECT id, name FROM room WHERE realm = ? AND name = ?').bind(realm, name).first<{ id: string; name: string }>()
}

/** The realm's rooms (id and name) by name, at most 1,000: choices of a publication form. */
export async function roomChoices(db: D1Database, realm: string): Promise<{ id: string; name: string }[]> {
  return (await db.prepare('SELECT id, name FROM room WHERE realm = ? ORDER BY name LIMIT 1000').bind(realm).all<{ id: string; name: string }>()).results
}

/** Every room membership of the realm with the member's name, at most 20,000: choices of a publication form. */
export async function memberChoices(db: D1Database, realm: string): Promise<{ room_id: string; nick: string; name: string }[]> {
  const { results } = await db
    .prepare(
      'SELECT m.room_id, m.nick, u.name FROM room_member m JOIN user u ON u.realm = m.realm AND u.nick = m.nick WHERE m.realm = ? ORDER BY u.name, m.nick LIMIT 20000',
    )
    .bind(realm)
    .all<{ room_id: string; nick: string; name: string }>()
  return results
}

/** The realm's room groups with their rooms (a JSON list), by name, at most 1,000. */
export async function groupChoices(db: D1Database, realm: string): Promise<{ id: string; name: string; rooms: string }[]> {
  return (
    await db
      .prepare('SELECT id, name, rooms FROM room_group WHERE realm = ? ORDER BY name LIMIT 1000')
      .bind(realm)
      .all<{ id: string; name: string; rooms: string }>()
  ).results
}

/** The room's breakout rooms (one level under it), by name. */
export async function listBreakouts(
  db: D1Database,
  realm: string,
  parentId: string,
): Promise<{ id: string; name: string; closed_at: string | null; member_count: number }[]> {
  const { results } = await db
    .prepare('SELECT id, name, closed_at, member_count FROM room WHERE realm = ? AND parent_id = ? ORDER BY name LIMIT 1000')
    .bind(realm, parentId)
    .all<{ id: string; name: string; closed_at: string | null; member_count: number }>()
  return results
}

/** How many breakout rooms the room has. */
export async function breakoutCount(db: D1Database, realm: string, parentId: string): Promise<number> {
  const row = await db.prepare('SELECT COUNT(*) AS n FROM room WHERE realm = ? AND parent_id = ?').bind(realm, parentId).first<{ n: number }>()
  return row?.n ?? 0
}

/** Closes the room and its open breakout rooms at `at` (rooms already closed keep their time). */
export function closeRoomStatement(db: D1Database, realm: string, id: string, at: string, by: string): D1PreparedStatement {
  return db
    .prepare('UPDATE room SET closed_at = ?3, updated_at = ?3, updated_by = ?4 WHERE realm = ?1 AND (id = ?2 OR parent_id = ?2) AND closed_at IS NULL')
    .bind(realm, id, at, by)
}

/** Reopens one room (its breakouts stay closed: a breakout is opened again on its own). */
export function reopenRoomStatement(db: D1Database, realm: string, id: string, at: string, by: string): D1PreparedStatement {
  return db.prepare('UPDATE room SET closed_at = NULL, updated_at = ?3, updated_by = ?4 WHERE realm = ?1 AND id = ?2').bind(realm, id, at, by)
}

/** The ids among `ids` that are room cards of the realm. */
export async function existingCards(db: D1Database, realm: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set()
  const { results } = await db
    .prepare('SELECT c.id FROM room_card c, json_each(?2) j WHERE c.realm = ?1 AND c.id = j.value')
    .bind(realm, JSON.stringify(ids))
    .all<{ id: string }>()
  return new Set(results.map((r) => r.id))
}

/** The room's cards in its order (id, type, label, icons), skipping ids no longer stored. */
export async function roomCards(
  db: D1Database,
  realm: string,
  roomId: string,
): Promise<{ id: string; type: string; label: string; icon: string; dark_icon: string }[]> {
  const { results } = await db
    .prepare(
      'SELECT c.id, c.type, c.label, c.icon, c.dark_icon FROM room r, json_each(r.cards) j JOIN room_card c ON c.realm = r.realm AND c.id = j.value WHERE r.realm = ? AND r.id = ? ORDER BY j.key',
    )
    .bind(realm, roomId)
    .all<{ id: string; type: string; label: string; icon: string; dark_icon: string }>()
  return results
}

/** How many rooms list the card. */
export async function roomsHoldingCard(db: D1Database, realm: string, cardId: string): Promise<number> {
  const row = await db
    .prepare('SELECT COUNT(*) AS n FROM room r, json_each(r.cards) j WHERE r.realm = ? AND j.value = ?')
    .bind(realm, cardId)
    .first<{ n: number }>()
  return row?.n ?? 0
}

/** One card of the realm with what opening it needs, or null. */
export function findCard(db: D1Database, realm: string, id: string): Promise<{ id: string; type: string; url: string } | null> {
  return db.prepare('SELECT id, type, url FROM room_card WHERE realm = ? AND id = ?').bind(realm, id).first<{ id: string; type: string; url: string }>()
}

/** What opening a card in a room, or joining a room, reads of the room. */
export function roomForOpen(
  db: D1Database,
  realm: string,
  id: string,
): Promise<{
  id: string
  name: string
  parent_id: string | null
  closed_at: string | null
  enable_at: string | null
  disable_at: string | null
  cards: string
} | null> {
  return db.prepare('SELECT id, name, parent_id, closed_at, enable_at, disable_at, cards FROM room WHERE realm = ? AND id = ?').bind(realm, id).first()
}

/**
 * Rooms per category: in the category itself, and in it or any category below it (the realm's tree is at most
 * 10,000 categories, walked by a recursive CTE).
 */
export async function roomCountByCategory(db: D1Database, realm: string, id: string): Promise<{ rooms: number; rooms_in_tree: number }> {
  const row = await db
    .prepare(
      `WITH RECURSIVE tree(id) AS (SELECT ?2 UNION SELECT c.id FROM room_category c JOIN tree t ON c.parent = t.id WHERE c.realm = ?1)
       SELECT (SELECT COUNT(*) FROM room WHERE realm = ?1 AND category_id = ?2) AS rooms,
              (SELECT COUNT(*) FROM room WHERE realm = ?1 AND category_id IN (SELECT id FROM tree)) AS rooms_in_tree`,
    )
    .bind(realm, id)
    .first<{ rooms: number; rooms_in_tree: number }>()
  return { rooms: row?.rooms ?? 0, rooms_in_tree: row?.rooms_in_tree ?? 0 }
}

/** Whether the realm has this room category. */
export async function roomCategoryExists(db: D1Database, realm: string, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM room_category WHERE realm = ? AND id = ?').bind(realm, id).first()) !== null
}

/** The name of one room filed under the category, or null. */
export async function firstRoomInCategory(db: D1Database, realm: string, id: string): Promise<string | null> {
  const row = await db.prepare('SELECT name FROM room WHERE realm = ? AND category_id = ? LIMIT 1').bind(realm, id).first<{ name: string }>()
  return row?.name ?? null
}

/** What a publication (a lesson's, a survey's) may target: the realm's rooms with their members, and room groups. */
export async function publicationChoices(db: D1Database, realm: string) {
  const [rooms, members, groups] = await Promise.all([roomChoices(db, realm), memberChoices(db, realm), groupChoices(db, realm)])
  return {
    rooms: rooms.map((r) => ({ ...r, members: members.filter((m) => m.room_id === r.id).map(({ nick, name }) => ({ nick, name })) })),
    groups: groups.map((g) => ({ ...g, rooms: JSON.parse(g.rooms) as string[] })),
  }
}
