import * as v from 'valibot'
import { RealmCode, UrlWithDefaultScheme, WebUrl, type WebUrlOptions } from './common'
import { defineEntity, type FieldDef } from './entity'
import { SIGNIN_METHODS, type SigninMethod } from '../signin-methods'
import { APP_SCHEME_PATTERN, RESERVED_SCHEMES } from '../deeplink'

export { SIGNIN_METHODS, type SigninMethod }
export const USER_KINDS = ['student', 'teacher', 'admin', 'partner', 'user'] as const
export const AWARD_KINDS = ['life', 'product'] as const
export const DASHBOARD_ROLES = ['manager', 'root', 'support', 'admin'] as const
/** Captcha kinds (seed 000 §3 "Captcha challenge"); a realm picks the one its sign-in shows. */
export const CAPTCHA_TYPES = ['pow', 'image', 'text'] as const
export type CaptchaType = (typeof CAPTCHA_TYPES)[number]

const text = (max = 500) => v.pipe(v.string(), v.trim(), v.maxLength(max, 'validation.max_length'))
const url = UrlWithDefaultScheme
/**
 * Branding images and pages people open from the sign-in screen (logo, favicon, single sign-on notice) may also be
 * served by the console itself (`/brand/logo.svg`, as the demo realms are).
 */
const ASSET: WebUrlOptions = { defaultScheme: true, empty: true, relative: true }
const asset = WebUrl(ASSET)
/** Documents people open from a link (terms, privacy): seed 000 §5 also accepts ftp for plain links. */
const LINK: WebUrlOptions = { ...ASSET, schemes: ['http', 'https', 'ftp'] }
const link = WebUrl(LINK)
const int = (min: number, max: number) =>
  v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(min, 'validation.min_value'), v.maxValue(max, 'validation.max_value'))
const bool = v.boolean('validation.boolean')
const list = <T extends v.GenericSchema>(item: T, max = 100) => v.pipe(v.array(item), v.maxLength(max, 'validation.max_items'))

/** Every stored realm field: its storage type and its write rule, declared once. */
const realmFields = {
  code: { def: { type: 'text', search: true, sort: true, list: true, filter: 'in' }, schema: RealmCode },
  name: {
    def: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    schema: v.pipe(v.string(), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(120, 'validation.max_length')),
  },
  parent_code: { def: { type: 'text', sort: true, list: true, filter: 'eq' }, schema: v.nullable(RealmCode) },
  canonical_name: { def: { type: 'text', search: true, sort: true, list: true, filter: 'like' }, schema: text(200) },
  nick_suffix: { def: { type: 'text' }, schema: v.pipe(text(40), v.regex(/^\S*$/, 'validation.no_spaces')) },
  allowed_signin: { def: { type: 'json' }, schema: v.pipe(list(v.picklist(SIGNIN_METHODS, 'validation.picklist'), 4), v.minLength(1, 'validation.min_items')) },
  dashboard_url: { def: { type: 'text' }, schema: url },
  logo_url: { def: { type: 'text' }, schema: asset },
  favicon_url: { def: { type: 'text' }, schema: asset },
  files_base_url: { def: { type: 'text' }, schema: url },
  signin_domain: { def: { type: 'text' }, schema: text(200) },
  irm_servers: { def: { type: 'json' }, schema: list(text(300)) },
  room_servers: { def: { type: 'json' }, schema: list(text(300)) },
  storage_bucket: { def: { type: 'text' }, schema: text(200) },
  storage_region: { def: { type: 'text' }, schema: text(100) },
  storage_credential_id: { def: { type: 'text' }, schema: text(200) },
  storage_credential_key: { def: { type: 'secret' }, schema: text(500) },
  csm_channel_enable: { def: { type: 'bool' }, schema: bool },
  csm_room_enable: { def: { type: 'bool' }, schema: bool },
  csm_max_duration: { def: { type: 'int' }, schema: int(0, 604800) },
  csm_max_idle_time: { def: { type: 'int' }, schema: int(0, 86400) },
  csm_must_record: { def: { type: 'bool' }, schema: bool },
  csm_spa_url: { def: { type: 'text' }, schema: url },
  csm_vod_slot_bucket: { def: { type: 'int' }, schema: int(1, 3600) },
  /** Storage quota of the realm's recordings in MB (issue 15, seed 002 §8); 0 = no quota. */
  csm_storage_quota_mb: { def: { type: 'int' }, schema: int(0, 100_000_000) },
  tms_enable: { def: { type: 'bool' }, schema: bool },
  tms_spa_url: { def: { type: 'text' }, schema: url },
  tms_task_expire_offset_days: { def: { type: 'int' }, schema: int(0, 3650) },
  msg_drop_rate: { def: { type: 'int' }, schema: int(0, 100000) },
  msg_per_day: { def: { type: 'int' }, schema: int(-1, 10000000) },
  room_msg_delay: { def: { type: 'int' }, schema: int(0, 86400) },
  room_msg_per_day: { def: { type: 'int' }, schema: int(-1, 10000000) },
  room_tx_duration: { def: { type: 'int' }, schema: int(0, 604800) },
  room_tx_interval: { def: { type: 'int' }, schema: int(0, 604800) },
  room_attachment_disabled: { def: { type: 'bool' }, schema: bool },
  enable_pvt_audio_call: { def: { type: 'bool' }, schema: bool },
  datami_tag: { def: { type: 'text' }, schema: text(200) },
  metaverse_api_token: { def: { type: 'secret' }, schema: text(500) },
  development: { def: { type: 'bool' }, schema: bool },
  time_zone: { def: { type: 'text' }, schema: v.pipe(text(64), v.check(isTimeZone, 'validation.time_zone')) },
  web_client_url: { def: { type: 'text' }, schema: url },
  base_url: { def: { type: 'text' }, schema: url },
  ios_store_url: { def: { type: 'text' }, schema: url },
  android_store_url: { def: { type: 'text' }, schema: url },
  // The mobile app's URL scheme (issue 13, migration 0038): the deep-link page's "open in the app".
  app_scheme: {
    def: { type: 'text' },
    schema: v.pipe(
      text(32),
      v.toLowerCase(),
      v.check((s) => s === '' || (APP_SCHEME_PATTERN.test(s) && !RESERVED_SCHEMES.includes(s)), 'validation.app_scheme'),
    ),
  },
  api_endpoint: { def: { type: 'text' }, schema: url },
  br_bot_endpoint: { def: { type: 'text' }, schema: text(500) },
  litmetrix_url: { def: { type: 'text' }, schema: url },
  cognitive_test_results_url: { def: { type: 'text' }, schema: url },
  allowed_roles: { def: { type: 'json' }, schema: list(v.picklist(DASHBOARD_ROLES, 'validation.picklist'), 4) },
  auth_type: {
    def: { type: 'json' },
    schema: v.record(
      v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^[a-z0-9.-]+\.[a-z]{2,}$/, 'validation.domain')),
      v.picklist(USER_KINDS, 'validation.picklist'),
    ),
  },
  terms: { def: { type: 'text' }, schema: link },
  privacy: { def: { type: 'text' }, schema: link },
  season_enable: { def: { type: 'bool' }, schema: bool },
  allowed_award: { def: { type: 'json' }, schema: list(v.picklist(AWARD_KINDS, 'validation.picklist'), 2) },
  captcha_enabled: { def: { type: 'bool' }, schema: bool },
  ledger_enabled: { def: { type: 'bool' }, schema: bool },
  persona_enabled: { def: { type: 'bool' }, schema: bool },
  tms_url: { def: { type: 'text' }, schema: url },
  tms_question_extra_fields: { def: { type: 'json' }, schema: list(v.record(v.string(), v.unknown())) },
  allow_custom_user_profile_picture: { def: { type: 'bool' }, schema: bool },
  csm_player_controls_list: { def: { type: 'text' }, schema: text(200) },
  task_external_preview_url: { def: { type: 'text' }, schema: url },
  token_sso_url: { def: { type: 'text' }, schema: asset },
  handtalk_enabled: { def: { type: 'bool' }, schema: bool },
  google_client_id: { def: { type: 'text' }, schema: text(300) },
  // Sign-in and session (issue 3): idle timeout and absolute lifetime of sessions, the captcha kind and the
  // proof-of-work difficulty (leading zero bits), and the secret of the local state-portal token adapter.
  session_idle_minutes: { def: { type: 'int' }, schema: int(1, 1440) },
  session_lifetime_minutes: { def: { type: 'int' }, schema: int(5, 43200) },
  captcha_type: { def: { type: 'text' }, schema: v.picklist(CAPTCHA_TYPES, 'validation.picklist') },
  captcha_pow_difficulty: { def: { type: 'int' }, schema: int(8, 24) },
  employee_token_secret: { def: { type: 'secret' }, schema: text(500) },
  // Realm limits of seed 002 §3 (issue 5; defaults in migration 0005 and README). -1 means unlimited.
  msg_per_second: { def: { type: 'int' }, schema: int(-1, 1000) },
  msg_min_interval_seconds: { def: { type: 'int' }, schema: int(0, 86400) },
  room_tx_weekly_seconds: { def: { type: 'int' }, schema: int(-1, 604800) },
  room_tx_renewal_days: { def: { type: 'int' }, schema: int(1, 365) },
  ledger_new_user_credits: { def: { type: 'int' }, schema: int(0, 1_000_000_000) },
  metaverse_max_session_minutes: { def: { type: 'int' }, schema: int(1, 1440) },
  max_rooms: { def: { type: 'int' }, schema: int(-1, 1_000_000) },
  max_users_per_room: { def: { type: 'int' }, schema: int(-1, 1_000_000) },
  max_users_per_environment: { def: { type: 'int' }, schema: int(-1, 10_000_000) },
  max_bitrate_kbps: { def: { type: 'int' }, schema: int(64, 100_000) },
  tms_default_deadline_days: { def: { type: 'int' }, schema: int(1, 3650) },
  tms_max_schedule_days: { def: { type: 'int' }, schema: int(1, 3650) },
  // Settings tabs of seed 002 §2 without fields in seed 000 §3: feed, agents, word filter, complaint reports.
  feed_enabled: { def: { type: 'bool' }, schema: bool },
  feed_moderated: { def: { type: 'bool' }, schema: bool },
  feed_max_pinned: { def: { type: 'int' }, schema: int(0, 50) },
  agent_endpoint_url: { def: { type: 'text' }, schema: url },
  agent_model: { def: { type: 'text' }, schema: text(200) },
  agent_api_key: { def: { type: 'secret' }, schema: text(500) },
  word_filter_links: { def: { type: 'bool' }, schema: bool },
  report_enabled: { def: { type: 'bool' }, schema: bool },
  report_reasons: {
    def: { type: 'json' },
    schema: v.pipe(list(v.pipe(text(60), v.minLength(1, 'validation.required')), 20), v.minLength(1, 'validation.min_items')),
  },
  created_at: { def: { type: 'text', sort: true, list: true, filter: 'date' }, schema: null },
  updated_at: { def: { type: 'text', sort: true }, schema: null },
  updated_by: { def: { type: 'text' }, schema: null },
  // Soft delete (migration 0011): set by DELETE /mas/realm/{code}, cleared by a restore; never written by a form.
  deleted_at: { def: { type: 'text', sort: true, list: true }, schema: null },
  deleted_by: { def: { type: 'text', list: true }, schema: null },
  deleted_by_realm: { def: { type: 'text' }, schema: null },
} as const satisfies Record<string, { def: FieldDef; schema: v.GenericSchema | null }>

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

/** Realm fields holding web addresses (validated by the shared WebUrl schema; readers re-check stored ones). */
export const REALM_URL_FIELDS = Object.entries(realmFields).flatMap(([name, f]) => {
  const options: WebUrlOptions | null = f.schema === url ? {} : f.schema === link ? LINK : f.schema === asset ? ASSET : null
  return options ? [{ name: name as keyof typeof realmFields & string, options }] : []
})

type Fields = typeof realmFields
type Writable = { [K in keyof Fields as Fields[K]['schema'] extends null ? never : K]: Fields[K]['schema'] }
const writable = Object.fromEntries(Object.entries(realmFields).flatMap(([k, f]) => (f.schema ? [[k, f.schema]] : []))) as unknown as {
  [K in keyof Writable]: Exclude<Writable[K], null>
}

/** Realm row as the API returns it (secrets masked). */
export type Realm = {
  [K in keyof Fields]: Fields[K]['def']['type'] extends 'bool'
    ? boolean
    : Fields[K]['def']['type'] extends 'int' | 'real'
      ? number
      : Fields[K]['def']['type'] extends 'json'
        ? unknown
        : K extends 'parent_code' | 'deleted_at' | 'deleted_by' | 'deleted_by_realm'
          ? string | null
          : string
}

export const realmEntity = defineEntity<Realm>({
  name: 'realm',
  table: 'realm',
  key: 'code',
  fields: Object.fromEntries(Object.entries(realmFields).map(([k, f]) => [k, f.def])) as { [K in keyof Realm]: FieldDef },
  defaultOrder: 'code',
})

const { code: _code, ...updatable } = writable
/** POST /mas/realm body: code and name required, every other field optional (stored defaults apply). */
export const RealmCreate = v.object({
  code: writable.code,
  name: writable.name,
  ...Object.fromEntries(
    Object.entries(updatable)
      .filter(([k]) => k !== 'name')
      .map(([k, s]) => [k, v.optional(s)]),
  ),
} as { code: typeof writable.code; name: typeof writable.name } & {
  [K in Exclude<keyof typeof updatable, 'name'>]: v.OptionalSchema<(typeof updatable)[K], undefined>
})
/** PUT /mas/realm/{code} body: any subset of the writable fields except the code. */
export const RealmUpdate = v.partial(v.object(updatable))

/** Public realm configuration (seed 000 §3), answered by GET /mas/realm/{code}/config. */
export interface RealmConfig {
  realm: string
  name: string
  development: boolean
  multirealm: boolean
  realm_selected: boolean
  time_zone: string
  dashboard_url: string
  web_client_url: string
  base_url: string
  files_base_url: string
  ios_store_url: string
  android_store_url: string
  api_endpoint: string
  br_bot_endpoint: string
  logo_url: string
  favicon_url: string
  litmetrix_url: string
  cognitive_test_results_url: string
  allowed_signin: SigninMethod[]
  allowed_roles: string[]
  auth_type: Record<string, string>
  terms: string
  privacy: string
  season_enable: boolean
  allowed_award: string[]
  canonical_name: string
  nick_suffix: string
  captcha_enabled: boolean
  ledger_enabled: boolean
  persona_enabled: boolean
  tms_url: string
  tms_question_extra_fields: unknown[]
  allow_custom_user_profile_picture: boolean
  'csm.player.attributes.controlsList': string
  task_external_preview_url: string
  token_sso_url: string
  handtalk_enabled: boolean
  google_client_id: string
  captcha_type: CaptchaType
}

/** Days a deleted realm can be restored; the scheduled purge removes it after that. */
export const REALM_RESTORE_DAYS = 30

/** DELETE /mas/realm/{code} body: the operator types the realm's code to confirm (compared with the path's code). */
export const RealmDeleteBody = v.object({
  confirm: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(40, 'validation.max_length')),
})

/** Answer of DELETE /mas/realm/{code}: when and by whom, and from when the purge may remove it. */
export interface RealmDeletion {
  code: string
  name: string
  deleted_at: string
  deleted_by: string
  purge_after: string
}
