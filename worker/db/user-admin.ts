import { userEntity, type User } from '#shared/schemas/user'
import { decodeRow, type Scope } from '../lib/entity'

/** Stored user columns a write may set (never realm or nick, which identify the row). */
export interface UserColumns {
  nick: string
  name: string
  email?: string
  phone?: string
  external_id?: string
  avatar_url?: string
  password_hash?: string
  origin_realm: string
  invisible?: boolean
  bot?: boolean
  hd_support?: boolean
  extra?: Record<string, string>
}

const now = () => new Date().toISOString()
const bit = (b: boolean | undefined) => (b ? 1 : 0)

/** A new user and its roles (position 0 is the primary role). */
export function insertUserStatements(db: D1Database, realm: string, u: UserColumns, roles: string[]): D1PreparedStatement[] {
  const at = now()
  return [
    db
      .prepare(
        `INSERT INTO user (realm, nick, name, email, phone, external_id, avatar_url, password_hash, origin_realm, invisible, bot, hd_support, extra, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        realm,
        u.nick,
        u.name,
        u.email ?? '',
        u.phone ?? '',
        u.external_id ?? '',
        u.avatar_url ?? '',
        u.password_hash ?? '',
        u.origin_realm,
        bit(u.invisible),
        bit(u.bot),
        bit(u.hd_support),
        JSON.stringify(u.extra ?? {}),
        at,
        at,
      ),
    ...setRolesStatements(db, realm, u.nick, roles).slice(1),
  ]
}

/** Changed columns of an existing user. */
export function updateUserStatement(
  db: D1Database,
  realm: string,
  nick: string,
  changes: Omit<Partial<UserColumns>, 'nick' | 'origin_realm'>,
): D1PreparedStatement {
  const cols = Object.entries(changes).filter(([, v]) => v !== undefined)
  const encode = (v: unknown) => (typeof v === 'boolean' ? bit(v) : typeof v === 'object' ? JSON.stringify(v) : v)
  return db
    .prepare(`UPDATE user SET ${[...cols.map(([k]) => `${k} = ?`), 'updated_at = ?'].join(', ')} WHERE realm = ? AND nick = ?`)
    .bind(...cols.map(([, v]) => encode(v)), now(), realm, nick)
}

export function setRolesStatements(db: D1Database, realm: string, nick: string, roles: string[]): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM user_role WHERE realm = ? AND nick = ?').bind(realm, nick),
    ...roles.map((role, position) => db.prepare('INSERT INTO user_role (realm, nick, role, position) VALUES (?, ?, ?, ?)').bind(realm, nick, role, position)),
  ]
}

export function setSuperviseesStatements(db: D1Database, realm: string, nick: string, supervisees: string[]): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM user_supervisee WHERE realm = ? AND nick = ?').bind(realm, nick),
    ...supervisees.map((s) => db.prepare('INSERT INTO user_supervisee (realm, nick, supervisee) VALUES (?, ?, ?)').bind(realm, nick, s)),
  ]
}

/** The user with its roles (in order) and supervisees, or null. */
export async function getUser(db: D1Database, realm: string, nick: string): Promise<User | null> {
  const [u, r, s] = await db.batch([
    db.prepare('SELECT * FROM user WHERE realm = ? AND nick = ?').bind(realm, nick),
    db.prepare('SELECT role FROM user_role WHERE realm = ? AND nick = ? ORDER BY position, role').bind(realm, nick),
    db.prepare('SELECT supervisee FROM user_supervisee WHERE realm = ? AND nick = ? ORDER BY supervisee').bind(realm, nick),
  ])
  const raw = u.results[0] as Record<string, unknown> | undefined
  if (!raw) return null
  return {
    ...(decodeRow(userEntity, raw) as Omit<User, 'roles' | 'supervisees'>),
    roles: (r.results as { role: string }[]).map((x) => x.role),
    supervisees: (s.results as { supervisee: string }[]).map((x) => x.supervisee),
  }
}

/** Roles of many users of a realm, by nick (list answers). */
/**
 * A user's roles (JSON array, primary first) as a computed column of the user list (worker/lib/entity.ts
 * `ListOptions.computed`), so the page answers them without another round trip.
 */
export const USER_ROLES_COLUMN = `SELECT json_group_array(role) FROM (SELECT ur.role FROM user_role ur WHERE ur.realm = "user".realm AND ur.nick = "user".nick ORDER BY ur.position, ur.role)`

/** Which of `nicks` exist in the realm. */
export async function existingNicks(db: D1Database, realm: string, nicks: string[]): Promise<Set<string>> {
  if (!nicks.length) return new Set()
  const { results } = await db
    .prepare(`SELECT nick FROM user WHERE realm = ? AND nick IN (${nicks.map(() => '?').join(', ')})`)
    .bind(realm, ...nicks)
    .all<{ nick: string }>()
  return new Set(results.map((r) => r.nick))
}

/** Revokes every session of a user except one (an administrator who changes their own password stays signed in). */
export function revokeOtherSessionsStatement(db: D1Database, realm: string, nick: string, keepTokenHash: string): D1PreparedStatement {
  return db
    .prepare('UPDATE session SET revoked_at = ? WHERE realm = ? AND nick = ? AND revoked_at IS NULL AND token_hash <> ?')
    .bind(now(), realm, nick, keepTokenHash)
}

/** Permissions granted by each of the realm's roles. */
export async function rolePermissionSets(db: D1Database, realm: string): Promise<Map<string, Set<string>>> {
  const [roles, perms] = await db.batch([
    db.prepare('SELECT role FROM role WHERE realm = ?').bind(realm),
    db.prepare('SELECT role, permission FROM role_permission WHERE realm = ?').bind(realm),
  ])
  const out = new Map<string, Set<string>>((roles.results as { role: string }[]).map((r) => [r.role, new Set<string>()]))
  for (const p of perms.results as { role: string; permission: string }[]) out.get(p.role)?.add(p.permission)
  return out
}

/** Turns a user's `disabled` flag on or off (ending their sessions is revokeUserSessionsStatement's, in the same batch). */
export function setUserDisabledStatement(db: D1Database, realm: string, nick: string, disabled: boolean): D1PreparedStatement {
  return db.prepare('UPDATE user SET disabled = ?, updated_at = ? WHERE realm = ? AND nick = ?').bind(bit(disabled), now(), realm, nick)
}

/** Removes a user (their roles and sessions go with them by the foreign keys). */
export function deleteUserStatement(db: D1Database, realm: string, nick: string): D1PreparedStatement {
  return db.prepare('DELETE FROM user WHERE realm = ? AND nick = ?').bind(realm, nick)
}

/** Every nick of the realm (an import checks each row against them). */
export async function allNicks(db: D1Database, realm: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT nick FROM user WHERE realm = ?').bind(realm).all<{ nick: string }>()
  return results.map((r) => r.nick)
}

/** List filter: the realm's users holding `role`. */
export function usersWithRole(realm: string, role: string): Scope {
  return { where: 'nick IN (SELECT nick FROM user_role WHERE realm = ? AND role = ?)', params: [realm, role] }
}
