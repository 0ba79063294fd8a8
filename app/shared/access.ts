import type { PermissionMap } from './schemas/permission'
import type { RealmConfig } from './schemas/realm'

/** Realm configuration flags a route may require (seed 000 §2.2). */
export type RealmFlag = 'ledger_enabled' | 'persona_enabled'

/**
 * A route's or action's requirement: every permission of `all` (AND, the default), at least one of `any`
 * (OR where the specification marks it), and every realm flag of `flags`.
 */
export interface Access {
  all?: readonly string[]
  any?: readonly string[]
  flags?: readonly RealmFlag[]
}

/** True when the permissions and the realm configuration satisfy the requirement. */
export function can(permissions: PermissionMap | undefined, config: Pick<RealmConfig, RealmFlag> | null | undefined, access: Access): boolean {
  const has = (p: string) => permissions?.[p] === true
  if (access.all && !access.all.every(has)) return false
  if (access.any && access.any.length > 0 && !access.any.some(has)) return false
  if (access.flags && !access.flags.every((f) => config?.[f] === true)) return false
  return true
}
