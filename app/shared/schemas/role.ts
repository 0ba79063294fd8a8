import * as v from 'valibot'
import { defineEntity } from './entity'
import { isPermission, ROLE_META_KEYS } from './permission'

/** Role names: a lowercase letter, then lowercase letters, digits, `_` or `-`; 2 to 40 characters. */
export const RoleName = v.pipe(v.string('validation.required'), v.trim(), v.toLowerCase(), v.regex(/^[a-z][a-z0-9_-]{1,39}$/, 'validation.role_name'))

const Description = v.pipe(v.string(), v.trim(), v.maxLength(500, 'validation.max_length'))

/** POST /mas/permission meta fields; the other keys of the body are permission flags (see PermissionFlags). */
export const RoleCreate = v.looseObject({ role: RoleName, description: v.optional(Description, '') })
/** PUT /mas/permission/{role} meta fields; permission keys left out keep their value. */
export const RoleUpdate = v.looseObject({ description: v.optional(Description) })

const isMeta = (key: string) => (ROLE_META_KEYS as readonly string[]).includes(key)

/**
 * Seed 000 §6: on a role, every key except realm, role, description, updated_at and updated_by is a permission.
 * Each must be in the catalogue and carry a boolean.
 */
export const PermissionFlags = v.pipe(
  v.record(v.string(), v.unknown()),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    for (const [key, value] of Object.entries(dataset.value)) {
      if (isMeta(key)) continue
      const path: [v.IssuePathItem] = [{ type: 'object', origin: 'value', input: dataset.value, key, value }]
      if (!isPermission(key)) addIssue({ message: 'validation.unknown_permission', path })
      else if (typeof value !== 'boolean') addIssue({ message: 'validation.boolean', path })
    }
  }),
  v.transform((body) => Object.fromEntries(Object.entries(body).filter(([k]) => !isMeta(k))) as Record<string, boolean>),
)

export type RoleRow = { realm: string; role: string; description: string; updated_at: string; updated_by: string; permission_count?: number }

/** The role table (meta fields); permissions live in role_permission. */
export const roleEntity = defineEntity<RoleRow>({
  name: 'role',
  table: 'role',
  key: 'role',
  realmColumn: 'realm',
  fields: {
    realm: { type: 'text', list: true },
    role: { type: 'text', search: true, sort: true, list: true },
    description: { type: 'text', search: true, sort: true, list: true },
    updated_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_by: { type: 'text', list: true, filter: 'eq' },
    permission_count: { type: 'int' },
  },
  defaultOrder: 'role',
})
