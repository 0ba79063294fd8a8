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
