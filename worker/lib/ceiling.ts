import type { ErrorItem } from '#shared/schemas/error'
import { PLATFORM_PERMISSIONS } from '#shared/schemas/permission'
import type { Auth } from '../db/sessions'
import { ApiError, apiError } from './errors'

/**
 * The privilege ceilings (issue 11), in one place: nobody grants or revokes a permission they do not hold, nobody
 * changes a role they hold, and nobody writes to a user who holds more than they do. Role writes (worker/api/
 * permission.ts), the first administrator of a new realm, role assignment and every write to another user
 * (worker/api/mas/user-write.ts, user.ts, user-import.ts) call these.
 */

/** The role a realm's top administrators hold; accounts holding it are changed only by its holders. */
export const ROOT_ROLE = 'root'

/** Holds every platform-level permission (the platform operator role, or an equivalent crafted one). */
export function isPlatformOperator(auth: Pick<Auth, 'permissions'>): boolean {
  return Object.keys(PLATFORM_PERMISSIONS).every((p) => auth.permissions.has(p))
}

/** The first of `permissions` the caller does not hold, or undefined. */
export function beyondCaller(auth: Pick<Auth, 'permissions'>, permissions: Iterable<string>): string | undefined {
  for (const p of permissions) if (!auth.permissions.has(p)) return p
  return undefined
}

/**
 * Grant ceiling: a role write may turn on or off only permissions the editor holds (platform ones included).
 * 403 `grant_ceiling` naming the first permission that would change without being held.
 */
export function refuseBeyondGrant(auth: Pick<Auth, 'permissions'>, before: Iterable<string>, after: Iterable<string>) {
  const was = new Set(before)
  const now = new Set(after)
  const changed = [...[...now].filter((p) => !was.has(p)), ...[...was].filter((p) => !now.has(p))].sort()
  const beyond = beyondCaller(auth, changed)
  if (beyond) throw apiError(403, 'grant_ceiling', 'privilege.grant_ceiling', beyond, beyond)
}

/** Nobody changes or deletes a role they hold (their home realm's roles are the ones that apply to them). */
export function refuseOwnRole(auth: Pick<Auth, 'home_realm' | 'roles'>, realm: string, role: string) {
  if (realm === auth.home_realm && auth.roles.includes(role)) throw apiError(403, 'own_role', 'privilege.own_role', 'role', role)
}

/** True when the user `nick` of `realm` is the caller themself. */
export function isSelf(auth: Pick<Auth, 'home_realm' | 'nick'>, realm: string, nick: string): boolean {
  return realm === auth.home_realm && nick === auth.nick
}

/**
 * User ceiling: why the caller may not write to another user (null when they may). A user holding `root` is changed
 * only by a holder of `root` or a platform operator; anyone else only when every permission of theirs (the union of
 * their roles in the realm the caller acts in) is one the caller holds. The acting realm itself is in the caller's
 * realm tree: a switched session is re-checked on every request (worker/db/sessions.ts).
 */
export function userCeiling(
  auth: Pick<Auth, 'permissions' | 'roles'>,
  targetRoles: readonly string[],
  rolePermissions: Map<string, Set<string>>,
): ErrorItem | null {
  if (targetRoles.includes(ROOT_ROLE) && !mayTouchRoot(auth)) {
    return { field: 'roles', cause: 'root_only', value: ROOT_ROLE, message: 'privilege.root_only' }
  }
  const held = [...new Set(targetRoles.flatMap((r) => [...(rolePermissions.get(r) ?? [])]))].sort()
  const beyond = beyondCaller(auth, held)
  return beyond ? { field: 'nick', cause: 'user_ceiling', value: beyond, message: 'privilege.user_ceiling' } : null
}

/** True when the caller may change who holds `root`, or change a root account: a holder of root or a platform operator. */
export function mayTouchRoot(auth: Pick<Auth, 'permissions' | 'roles'>): boolean {
  return auth.roles.includes(ROOT_ROLE) || isPlatformOperator(auth)
}

/** Throws the user ceiling's refusal (403) unless the target is the caller. */
export function refuseAboveUser(auth: Auth, realm: string, target: { nick: string; roles: readonly string[] }, rolePermissions: Map<string, Set<string>>) {
  if (isSelf(auth, realm, target.nick)) return
  const refusal = userCeiling(auth, target.roles, rolePermissions)
  if (refusal) throw new ApiError(403, [refusal])
}
