import { permissionMap, type PermissionMap } from '../../app/schemas/permission'

/** A role as the API answers it: meta fields and every catalogue permission flattened beside them (seed 000 §6). */
export type RoleObject = { realm: string; role: string; description: string; updated_at: string; updated_by: string } & PermissionMap

export async function getRole(db: D1Database, realm: string, role: string): Promise<RoleObject | null> {
  const [meta, perms] = await db.batch([
    db.prepare('SELECT realm, role, description, updated_at, updated_by FROM role WHERE realm = ? AND role = ?').bind(realm, role),
    db.prepare('SELECT permission FROM role_permission WHERE realm = ? AND role = ?').bind(realm, role),
  ])
  const m = meta.results[0] as { realm: string; role: string; description: string; updated_at: string; updated_by: string } | undefined
  if (!m) return null
  return { ...permissionMap((perms.results as { permission: string }[]).map((p) => p.permission)), ...m } as RoleObject
}
