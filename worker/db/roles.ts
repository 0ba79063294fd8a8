import { PERMISSIONS, permissionMap, type PermissionMap } from '#shared/schemas/permission'

/** A role as the API answers it: meta fields and every catalogue permission flattened beside them (seed 000 §6). */
export type RoleObject = { realm: string; role: string; description: string; updated_at: string; updated_by: string } & PermissionMap

type RoleMeta = { realm: string; role: string; description: string; updated_at: string; updated_by: string }

export async function getRole(db: D1Database, realm: string, role: string): Promise<RoleObject | null> {
  const [meta, perms] = await db.batch([
    db.prepare('SELECT realm, role, description, updated_at, updated_by FROM role WHERE realm = ? AND role = ?').bind(realm, role),
    db.prepare('SELECT permission FROM role_permission WHERE realm = ? AND role = ?').bind(realm, role),
  ])
  const m = meta.results[0] as RoleMeta | undefined
  if (!m) return null
  return { ...permissionMap((perms.results as { permission: string }[]).map((p) => p.permission)), ...m } as RoleObject
}

/** Granted permission names of a role. */
export async function rolePermissions(db: D1Database, realm: string, role: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT permission FROM role_permission WHERE realm = ? AND role = ?').bind(realm, role).all<{ permission: string }>()
  return results.map((r) => r.permission)
}

/** Statements that make a role grant exactly `granted` (only catalogue names are stored). */
export function setRolePermissionsStatements(db: D1Database, realm: string, role: string, granted: Iterable<string>): D1PreparedStatement[] {
  const known = new Set<string>(PERMISSIONS)
  return [
    db.prepare('DELETE FROM role_permission WHERE realm = ? AND role = ?').bind(realm, role),
    ...[...new Set(granted)]
      .filter((p) => known.has(p))
      .map((p) => db.prepare('INSERT INTO role_permission (realm, role, permission) VALUES (?, ?, ?)').bind(realm, role, p)),
  ]
}

/** How many users hold a role. */
export async function roleUsage(db: D1Database, realm: string, role: string): Promise<number> {
  const row = await db.prepare('SELECT COUNT(*) AS n FROM user_role WHERE realm = ? AND role = ?').bind(realm, role).first<{ n: number }>()
  return row?.n ?? 0
}

/** How many permissions each role of the realm grants, by role name. */
export async function rolePermissionCounts(db: D1Database, realm: string): Promise<Map<string, number>> {
  const { results } = await db
    .prepare('SELECT role, COUNT(*) AS n FROM role_permission WHERE realm = ? GROUP BY role')
    .bind(realm)
    .all<{ role: string; n: number }>()
  return new Map(results.map((r) => [r.role, r.n]))
}

/** The realm's roles with their descriptions, by name. */
export async function listRoleNames(db: D1Database, realm: string): Promise<{ role: string; description: string }[]> {
  const { results } = await db
    .prepare('SELECT role, description FROM role WHERE realm = ? ORDER BY role')
    .bind(realm)
    .all<{ role: string; description: string }>()
  return results
}

/** A new role (its permissions are set by setRolePermissionsStatements). */
export function insertRoleStatement(db: D1Database, realm: string, role: string, description: string, by: string): D1PreparedStatement {
  return db
    .prepare('INSERT INTO role (realm, role, description, updated_at, updated_by) VALUES (?, ?, ?, ?, ?)')
    .bind(realm, role, description, new Date().toISOString(), by)
}

/** A role's new description (and who changed it when). */
export function updateRoleStatement(db: D1Database, realm: string, role: string, description: string, by: string): D1PreparedStatement {
  return db
    .prepare('UPDATE role SET description = ?, updated_at = ?, updated_by = ? WHERE realm = ? AND role = ?')
    .bind(description, new Date().toISOString(), by, realm, role)
}

/** Removes a role (its permissions go with it). */
export function deleteRoleStatement(db: D1Database, realm: string, role: string): D1PreparedStatement {
  return db.prepare('DELETE FROM role WHERE realm = ? AND role = ?').bind(realm, role)
}

/** A user's primary role ('' when they hold none) and every permission their roles grant (repeats included). */
export async function primaryRoleAndPermissions(db: D1Database, realm: string, nick: string): Promise<{ role: string; permissions: string[] }> {
  const { results } = await db
    .prepare(
      'SELECT ur.role, rp.permission FROM user_role ur LEFT JOIN role_permission rp ON rp.realm = ur.realm AND rp.role = ur.role WHERE ur.realm = ? AND ur.nick = ? ORDER BY ur.position',
    )
    .bind(realm, nick)
    .all<{ role: string; permission: string | null }>()
  return { role: results[0]?.role ?? '', permissions: results.flatMap((r) => (r.permission ? [r.permission] : [])) }
}

/** Whether the user's roles in the realm grant `permission` (one permission checked without loading the rest). */
export async function userHoldsPermission(db: D1Database, realm: string, nick: string, permission: string): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT 1 FROM user_role ur JOIN role_permission rp ON rp.realm = ur.realm AND rp.role = ur.role
       WHERE ur.realm = ? AND ur.nick = ? AND rp.permission = ? LIMIT 1`,
    )
    .bind(realm, nick, permission)
    .first()
  return row !== null
}
