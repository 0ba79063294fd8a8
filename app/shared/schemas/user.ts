import * as v from 'valibot'
import { defineEntity } from './entity'
import type { ErrorItem } from './error'
import { RoleName } from './role'

/**
 * Users of a realm (seed 002 §3 "User"): the rules the API enforces and the user forms validate live.
 * A nick is lowercase: letters, digits, `.`, `_`, `-`, optionally followed by the realm's `@suffix`.
 */
export const Nick = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.toLowerCase(),
  v.minLength(2, 'validation.username_length'),
  v.maxLength(120, 'validation.max_length'),
  v.regex(/^[a-z0-9][a-z0-9._-]*(@[a-z0-9][a-z0-9._-]*)?$/, 'validation.nick'),
)

/** A password an administrator sets: 8 to 200 characters (sign-in itself accepts older, shorter ones). */
export const NewPassword = v.pipe(v.string(), v.minLength(8, 'validation.password_new'), v.maxLength(200, 'validation.max_length'))

export const PersonName = v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(120, 'validation.max_length'))

/** E-mail (seed 000 §5 helper "valid e-mail pattern"); empty allowed where the field is optional. */
export const Email = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(200, 'validation.max_length'),
  v.regex(/^$|^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/, 'validation.email'),
)
export const Phone = v.pipe(v.string(), v.trim(), v.regex(/^$|^\+?[0-9 ()-]{8,20}$/, 'validation.phone'))
const ExternalId = v.pipe(v.string(), v.trim(), v.maxLength(120, 'validation.max_length'))
const flag = v.boolean('validation.boolean')

/** Extra-field values of an entity: key → text (seed 002 §3 "Extra field"). */
export const ExtraValues = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,39}$/, 'validation.extra_key')),
    v.pipe(v.string(), v.trim(), v.maxLength(1000, 'validation.max_length')),
  ),
  v.check((r) => Object.keys(r).length <= 100, 'validation.max_items'),
)

const fields = {
  name: PersonName,
  email: Email,
  phone: Phone,
  external_id: ExternalId,
  roles: v.pipe(
    v.array(RoleName),
    v.maxLength(20, 'validation.max_items'),
    v.check((r) => new Set(r).size === r.length, 'validation.duplicate'),
  ),
  supervisees: v.pipe(
    v.array(Nick),
    v.maxLength(500, 'validation.max_items'),
    v.check((r) => new Set(r).size === r.length, 'validation.duplicate'),
  ),
  invisible: flag,
  bot: flag,
  hd_support: flag,
  extra: ExtraValues,
  /** An uploaded image (POST /mas/file id) to use as profile picture, or '' to remove it. */
  avatar_file_id: v.pipe(v.string(), v.trim(), v.maxLength(64, 'validation.max_length')),
}

/** POST /mas/user: nick and name required; the realm's nick suffix is appended when missing. */
export const UserCreate = v.object({
  nick: Nick,
  password: v.optional(NewPassword),
  ...Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, k === 'name' ? s : v.optional(s)])),
} as { nick: typeof Nick; password: v.OptionalSchema<typeof NewPassword, undefined>; name: typeof PersonName } & {
  [K in Exclude<keyof typeof fields, 'name'>]: v.OptionalSchema<(typeof fields)[K], undefined>
})

/** PUT /mas/user/{nick}: any subset; `password` sets a new one. The nick never changes. */
export const UserUpdate = v.partial(v.object({ ...fields, password: NewPassword }))
export type UserCreate = v.InferOutput<typeof UserCreate>
export type UserUpdate = v.InferOutput<typeof UserUpdate>

/** PUT /mas/user/{nick}/disable. */
export const UserDisable = v.object({ disabled: flag })

/** A user as the API answers it (never the password hash). */
export interface User {
  realm: string
  nick: string
  name: string
  email: string
  phone: string
  external_id: string
  avatar_url: string
  origin_realm: string
  disabled: boolean
  invisible: boolean
  bot: boolean
  hd_support: boolean
  extra: Record<string, string>
  roles: string[]
  supervisees: string[]
  created_at: string
  updated_at: string
  /**
   * GET /mas/user/{nick} only: why the caller may not change this user (they hold more than the caller, or `root`),
   * as the 403 any write would answer; null when the caller may.
   */
  ceiling?: ErrorItem | null
}

/** The user table for the shared list machinery (search, filters, paging, CSV). */
export const userEntity = defineEntity<Omit<User, 'roles' | 'supervisees' | 'ceiling'>>({
  name: 'user',
  table: 'user',
  key: 'nick',
  realmColumn: 'realm',
  fields: {
    realm: { type: 'text' },
    nick: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    email: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    phone: { type: 'text', search: true, list: true },
    external_id: { type: 'text', search: true, list: true, filter: 'eq' },
    avatar_url: { type: 'text' },
    origin_realm: { type: 'text', sort: true, list: true, filter: 'eq' },
    disabled: { type: 'bool', sort: true, list: true, filter: 'eq' },
    invisible: { type: 'bool', list: true, filter: 'eq' },
    bot: { type: 'bool', list: true, filter: 'eq' },
    hd_support: { type: 'bool', list: true, filter: 'eq' },
    extra: { type: 'json' },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true },
  },
  defaultOrder: 'nick',
})

/** User search needs at least 3 characters (seed 002 §5, §9). */
export const USER_SEARCH_MIN = 3

/** One row of a CSV import report. */
export interface ImportRow {
  line: number
  nick: string
  status: 'created' | 'updated' | 'refused'
  errors: { field: string; cause: string; message: string }[]
}
export interface ImportReport {
  dry_run: boolean
  created: number
  updated: number
  refused: number
  rows: ImportRow[]
}
