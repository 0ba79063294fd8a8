import type { ChannelMember, MemberPermission } from '#shared/schemas/channel'
import { likePattern } from './entity-rows'

/** The channel list's computed `category_name`: the name of the row's category (null without one). */
export const CHANNEL_CATEGORY_NAME_COLUMN = 'SELECT k.name FROM channel_category k WHERE k.realm = "channel".realm AND k.id = "channel".category_id'

/** Channels, their members and categories (issue 13). Every statement is scoped by the realm. */

/** A channel of the realm (id, name, owner), or null. */
export function findChannel(db: D1Database, realm: string, id: string): Promise<{ id: string; name: string; owner: string } | null> {
  return db.prepare('SELECT id, name, owner FROM channel WHERE realm = ? AND id = ?').bind(realm, id).first<{ id: string; name: string; owner: string }>()
}

/** The names of the realm's channels this user owns (at most 10, by name). */
export async function channelsOwnedBy(db: D1Database, realm: string, nick: string): Promise<string[]> {
  const { results } = await db
    .prepare(
      "SELECT c.name FROM channel_member m JOIN channel c ON c.id = m.channel_id WHERE m.realm = ? AND m.nick = ? AND m.permission = 'owner' ORDER BY c.name LIMIT 10",
    )
    .bind(realm, nick)
    .all<{ name: string }>()
  return results.map((r) => r.name)
}

/** Whether another channel of the realm has this name (case does not count). */
export async function channelNameTaken(db: D1Database, realm: string, name: string, self?: string): Promise<boolean> {
  const row = await db
    .prepare('SELECT 1 FROM channel WHERE realm = ? AND name = ? COLLATE NOCASE AND id != ?')
    .bind(realm, name, self ?? '')
    .first()
  return row !== null
}

/** Whether the realm has this channel category. */
export async function channelCategoryExists(db: D1Database, realm: string, id: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM channel_category WHERE realm = ? AND id = ?').bind(realm, id).first()) !== null
}

/**
 * The realm's users among `nicks`, each as stored (the realm's nick suffix is appended when a nick lacks it, as at
 * sign-in): given → stored nick. Nicks without a user are missing from the map.
 */
export async function resolveNicks(db: D1Database, realm: string, nicks: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  if (!nicks.length) return out
  const { results } = await db
    .prepare(
      `SELECT g.value AS given, u.nick FROM json_each(?2) g JOIN realm r ON r.code = ?1
       JOIN user u ON u.realm = ?1 AND (u.nick = g.value OR u.nick = g.value || r.nick_suffix)`,
    )
    .bind(realm, JSON.stringify(nicks))
    .all<{ given: string; nick: string }>()
  for (const r of results) if (!out.has(r.given) || r.nick === r.given) out.set(r.given, r.nick)
  return out
}

/** The channel's members with their names: all, or those whose nick or name contains `like`, or of one permission. */
export async function listChannelMembers(
  db: D1Database,
  realm: string,
  channelId: string,
  filter: { like?: string; permission?: MemberPermission } = {},
): Promise<ChannelMember[]> {
  const like = filter.like ? likePattern(filter.like) : null
  const { results } = await db
    .prepare(
      `SELECT m.channel_id, m.nick, u.name, m.permission, m.added_at, m.added_by
       FROM channel_member m JOIN user u ON u.realm = m.realm AND u.nick = m.nick
       WHERE m.realm = ?1 AND m.channel_id = ?2
         AND (?3 IS NULL OR m.nick LIKE ?3 ESCAPE '\\' OR u.name LIKE ?3 ESCAPE '\\')
         AND (?4 IS NULL OR m.permission = ?4)
       ORDER BY CASE m.permission WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 WHEN 'operator' THEN 2 WHEN 'recorder' THEN 3 WHEN 'mobile' THEN 4 ELSE 5 END, u.name, m.nick
       LIMIT 1000`,
    )
    .bind(realm, channelId, like, filter.permission ?? null)
    .all<ChannelMember>()
  return results
}

/** One member's permission, or null when the user is not a member. */
export async function memberPermission(db: D1Database, realm: string, channelId: string, nick: string): Promise<MemberPermission | null> {
  const row = await db
    .prepare('SELECT permission FROM channel_member WHERE realm = ? AND channel_id = ? AND nick = ?')
    .bind(realm, channelId, nick)
    .first<{ permission: MemberPermission }>()
  return row?.permission ?? null
}

/** The realm's `max_users_per_room` (-1: no limit) and how many members the channel has. */
export function channelMemberCountAndLimit(db: D1Database, realm: string, channelId: string): Promise<{ max: number; n: number } | null> {
  return db
    .prepare(
      'SELECT r.max_users_per_room AS max, (SELECT COUNT(*) FROM channel_member WHERE realm = r.code AND channel_id = ?) AS n FROM realm r WHERE r.code = ?',
    )
    .bind(channelId, realm)
    .first<{ max: number; n: number }>()
}

/** The realm's `max_users_per_room` (-1: no limit). */
export async function membersLimit(db: D1Database, realm: string): Promise<number> {
  const row = await db.prepare('SELECT max_users_per_room AS max FROM realm WHERE code = ?').bind(realm).first<{ max: number }>()
  return row?.max ?? -1
}

export function insertMemberStatement(
  db: D1Database,
  realm: string,
  channelId: string,
  nick: string,
  permission: MemberPermission,
  by: string,
): D1PreparedStatement {
  return db
    .prepare('INSERT INTO channel_member (realm, channel_id, nick, permission, added_at, added_by) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(realm, channelId, nick, permission, new Date().toISOString(), by)
}

export function updateMemberStatement(db: D1Database, realm: string, channelId: string, nick: string, permission: MemberPermission): D1PreparedStatement {
  return db.prepare('UPDATE channel_member SET permission = ? WHERE realm = ? AND channel_id = ? AND nick = ?').bind(permission, realm, channelId, nick)
}

export function deleteMemberStatement(db: D1Database, realm: string, channelId: string, nick: string): D1PreparedStatement {
  return db.prepare('DELETE FROM channel_member WHERE realm = ? AND channel_id = ? AND nick = ?').bind(realm, channelId, nick)
}

/** Removes every member (before a member list is replaced, in the same batch). */
export function deleteAllMembersStatement(db: D1Database, realm: string, channelId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM channel_member WHERE realm = ? AND channel_id = ?').bind(realm, channelId)
}

/** Sets or clears a channel's password hash. */
export function channelPasswordStatement(db: D1Database, realm: string, channelId: string, hash: string): D1PreparedStatement {
  return db.prepare('UPDATE channel SET password_hash = ?, has_password = ? WHERE realm = ? AND id = ?').bind(hash, hash ? 1 : 0, realm, channelId)
}
