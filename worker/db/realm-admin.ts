import { PLATFORM_PERMISSIONS, PLATFORM_ROLE } from '#shared/schemas/permission'
import { realmEntity } from '#shared/schemas/realm'
import { decodeRow } from '../lib/entity'
import { listRealmHosts } from './realms'

/** A column default as SQLite reports it: a number or a quoted string; expressions (times) are skipped. */
function literal(sql: string | null): unknown {
  if (sql === null) return undefined
  if (/^-?\d+(\.\d+)?$/.test(sql)) return Number(sql)
  const quoted = /^'(.*)'$/s.exec(sql)
  return quoted ? quoted[1].replace(/''/g, "'") : undefined
}

/** The values a new realm gets for every field not sent: the table's own defaults, so they never drift. */
export async function realmDefaults(db: D1Database): Promise<Record<string, unknown>> {
  const { results } = await db.prepare('PRAGMA table_info(realm)').all<{ name: string; dflt_value: string | null }>()
  const raw = Object.fromEntries(results.flatMap((c) => (literal(c.dflt_value) === undefined ? [] : [[c.name, literal(c.dflt_value)]])))
  return decodeRow(realmEntity, raw)
}

/** Hosts of `hosts` already bound to a realm other than `realm`. */
export async function hostsTakenElsewhere(db: D1Database, hosts: string[], realm: string): Promise<{ host: string; realm: string }[]> {
  if (!hosts.length) return []
  const { results } = await db
    .prepare(`SELECT host, realm FROM realm_host WHERE host IN (${hosts.map(() => '?').join(', ')}) AND realm <> ?`)
    .bind(...hosts, realm)
    .all<{ host: string; realm: string }>()
  return results
}

/** Statements making `hosts` exactly the host names of the realm. */
export function setHostsStatements(db: D1Database, realm: string, hosts: string[]): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM realm_host WHERE realm = ?').bind(realm),
    ...hosts.map((h) => db.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(h, realm)),
  ]
}

const PLATFORM = Object.keys(PLATFORM_PERMISSIONS)
const notPlatform = `permission NOT IN (${PLATFORM.map(() => '?').join(', ')})`

/**
 * Statements copying the roles of `from` (with their permissions) into the new realm `to`, as a realm of its own
 * gets them: without platform-level permissions, and without the platform operator role, which would be nothing but
 * a second `root` there.
 */
export function copyRolesStatements(db: D1Database, from: string, to: string, by: string): D1PreparedStatement[] {
  const now = new Date().toISOString()
  return [
    db
      .prepare('INSERT INTO role (realm, role, description, updated_at, updated_by) SELECT ?, role, description, ?, ? FROM role WHERE realm = ? AND role <> ?')
      .bind(to, now, by, from, PLATFORM_ROLE),
    db
      .prepare(
        `INSERT INTO role_permission (realm, role, permission) SELECT ?, role, permission FROM role_permission WHERE realm = ? AND role <> ? AND ${notPlatform}`,
      )
      .bind(to, from, PLATFORM_ROLE, ...PLATFORM),
  ]
}

/**
 * Permissions a role of `realm` will grant once copied into a new realm (copyRolesStatements), or null when it does
 * not exist or is not copied.
 */
export async function copiedPermissionsOf(db: D1Database, realm: string, role: string): Promise<string[] | null> {
  if (role === PLATFORM_ROLE) return null
  const exists = await db.prepare('SELECT 1 FROM role WHERE realm = ? AND role = ?').bind(realm, role).first()
  if (!exists) return null
  const { results } = await db
    .prepare(`SELECT permission FROM role_permission WHERE realm = ? AND role = ? AND ${notPlatform}`)
    .bind(realm, role, ...PLATFORM)
    .all<{ permission: string }>()
  return results.map((r) => r.permission)
}

/** Hosts and metaverse rooms, which the realm answer carries beside its own fields. */
export async function realmExtras(db: D1Database, code: string) {
  const [hosts, rooms] = await Promise.all([
    listRealmHosts(db, code),
    db.prepare('SELECT id, name, enabled FROM metaverse_room WHERE realm = ? ORDER BY name').bind(code).all<{ id: string; name: string; enabled: number }>(),
  ])
  return { hosts, metaverse_rooms: rooms.results.map((r) => ({ id: r.id, name: r.name, enabled: r.enabled === 1 })) }
}
