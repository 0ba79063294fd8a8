import * as v from 'valibot'
import { CAPTCHA_TYPES, RealmCreate, RealmUpdate, SIGNIN_METHODS, realmEntity, type Realm } from './realm'
import { RoleName } from './role'
import { Email, NewPassword, Nick, PersonName } from './user'

/**
 * Realm administration contracts (issue 5) beside the realm's own fields: host names, the first administrator of a
 * new realm, the settings tabs of seed 002 §2, the word filter, exemption domains and the global configuration.
 */

/** A host name serving one realm: DNS labels with at least one dot, no IP literal, no port (`localhost` stays multi-realm). */
export const HostName = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(253, 'validation.host'),
  v.regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'validation.host'),
  v.check((h) => !/^[\d.]+$/.test(h), 'validation.host'),
)
const unique = <T>(xs: T[]) => new Set(xs).size === xs.length
export const RealmHosts = v.pipe(v.array(HostName), v.maxLength(20, 'validation.max_items'), v.check(unique, 'validation.duplicate'))

/** The first administrator of a new realm, created with it (otherwise nobody could sign in there). */
export const FirstAdmin = v.object({ nick: Nick, name: PersonName, email: v.optional(Email, ''), password: NewPassword, role: RoleName })

/** POST /mas/realm: the realm's fields, its hosts and optionally its first administrator. */
export const RealmCreateBody = v.object({ ...RealmCreate.entries, hosts: v.optional(RealmHosts), admin: v.optional(FirstAdmin) })
/** PUT /mas/realm/{code}: any subset of the realm's fields; `hosts` replaces the realm's host names. */
export const RealmUpdateBody = v.object({ ...RealmUpdate.entries, hosts: v.optional(RealmHosts) })
export type RealmCreateBody = v.InferOutput<typeof RealmCreateBody>

/** A metaverse room as GET /mas/realm/{code} carries it in `metaverse_rooms`. */
export interface MetaverseRoomSummary {
  id: string
  name: string
  enabled: boolean
}
/** A realm as GET /mas/realm/{code} answers it: its fields, its hosts and its metaverse rooms. */
export type RealmDetail = Realm & { hosts: string[]; metaverse_rooms: MetaverseRoomSummary[] }

export type RealmField = keyof Realm & string
export interface RealmTab {
  id: string
  fields: RealmField[]
  /** Server, storage and host settings: changing them also needs mas_realm_edit_infra. */
  infra?: boolean
  /** The tab's features store files in the realm's bucket: it says so when the credentials are missing. */
  needsStorage?: boolean
  /** A part of the tab edited through its own API (word filter, exemption domains, metaverse rooms, reports). */
  panel?: 'word_filter' | 'exemption' | 'metaverse' | 'reports' | 'rtc' | 'genesis'
}

const writable = Object.keys(RealmUpdate.entries) as RealmField[]
const STORAGE: RealmField[] = ['storage_bucket', 'storage_region', 'storage_credential_id', 'storage_credential_key']

/** The settings tabs of seed 002 §2, in order, as lists of realm fields (the general tab also takes any field no
 * other tab claims, so a field added later is always editable). The captcha tab lists every `captcha_*` field. */
const declared: RealmTab[] = [
  {
    id: 'general',
    fields: [
      'name',
      'parent_code',
      'canonical_name',
      'nick_suffix',
      'time_zone',
      'development',
      'allowed_signin',
      'allowed_roles',
      'auth_type',
      'signin_domain',
      'token_sso_url',
      'google_client_id',
      'logo_url',
      'favicon_url',
      'terms',
      'privacy',
      'ios_store_url',
      'android_store_url',
      'app_scheme',
      'litmetrix_url',
      'cognitive_test_results_url',
      'allow_custom_user_profile_picture',
      'handtalk_enabled',
      'persona_enabled',
    ],
  },
  {
    id: 'servers',
    infra: true,
    panel: 'rtc',
    fields: ['api_endpoint', 'base_url', 'dashboard_url', 'web_client_url', 'irm_servers', 'room_servers', 'br_bot_endpoint'],
  },
  { id: 'storage', infra: true, fields: [...STORAGE, 'files_base_url'] },
  {
    id: 'tms',
    fields: [
      'tms_enable',
      'tms_url',
      'tms_spa_url',
      'tms_task_expire_offset_days',
      'tms_default_deadline_days',
      'tms_max_schedule_days',
      'task_external_preview_url',
      'tms_question_extra_fields',
      'season_enable',
      'allowed_award',
    ],
  },
  { id: 'ledger', fields: ['ledger_enabled', 'ledger_new_user_credits'] },
  {
    id: 'recording',
    needsStorage: true,
    fields: [
      'csm_channel_enable',
      'csm_room_enable',
      'csm_must_record',
      'csm_max_duration',
      'csm_max_idle_time',
      'csm_vod_slot_bucket',
      'csm_spa_url',
      'csm_player_controls_list',
      'csm_storage_quota_mb',
    ],
  },
  { id: 'feed', fields: ['feed_enabled', 'feed_moderated', 'feed_max_pinned'] },
  {
    id: 'rooms',
    fields: [
      'msg_drop_rate',
      'msg_per_day',
      'msg_per_second',
      'msg_min_interval_seconds',
      'room_msg_delay',
      'room_msg_per_day',
      'room_tx_duration',
      'room_tx_interval',
      'room_tx_weekly_seconds',
      'room_tx_renewal_days',
      'max_rooms',
      'max_users_per_room',
      'max_users_per_environment',
      'max_bitrate_kbps',
      'room_attachment_disabled',
      'enable_pvt_audio_call',
      'datami_tag',
    ],
  },
  { id: 'metaverse', panel: 'metaverse', fields: ['metaverse_api_token', 'metaverse_max_session_minutes'] },
  { id: 'word_filter', panel: 'word_filter', fields: ['word_filter_links'] },
  { id: 'captcha', fields: writable.filter((f) => f.startsWith('captcha_')) },
  { id: 'agents', fields: ['agent_endpoint_url', 'agent_model', 'agent_api_key'] },
  { id: 'exemption', panel: 'exemption', fields: [] },
  { id: 'reports', panel: 'reports', fields: ['report_enabled', 'report_reasons'] },
  // Content generation (issue 18): its own document (`/api/cgs/settings`), edited in the realm the console is in.
  { id: 'genesis', panel: 'genesis', fields: [] },
]

const claimed = new Set(declared.flatMap((t) => t.fields))
export const REALM_TABS: RealmTab[] = declared.map((t) =>
  t.id === 'general'
    ? { ...t, fields: [...t.fields.filter((f) => writable.includes(f)), ...writable.filter((f) => f !== 'code' && !claimed.has(f))] }
    : { ...t, fields: t.fields.filter((f) => writable.includes(f)) },
)

/**
 * Infra fields outside the servers and storage tabs: `development` offers the payment sandbox (free credits) and the
 * development outbox, and `employee_token_secret` signs state-portal sign-in links for any employee of the realm
 * (whoever holds it can sign in as anyone with an employee id, above them included).
 */
const INFRA_ELSEWHERE: RealmField[] = ['development', 'employee_token_secret']

/**
 * Fields whose change needs mas_realm_edit_infra besides mas_realm_edit: the servers and storage tabs, the `hosts`
 * list, the development flag and the sign-in secret. The API refuses them (worker/api/realm-write.ts) on create and
 * update; the realm editor shows them read-only without the permission.
 */
export const INFRA_FIELDS: string[] = [
  ...REALM_TABS.filter((t) => t.infra).flatMap((t) => t.fields),
  ...INFRA_ELSEWHERE.filter((f) => writable.includes(f)),
  'hosts',
]
/** The storage credentials a `needsStorage` tab requires. */
export const STORAGE_FIELDS = STORAGE
/** Recording cannot be enabled without storage credentials. */
export const RECORDING_SWITCHES: RealmField[] = ['csm_channel_enable', 'csm_room_enable']

/** How a realm field is edited: from its stored type, with a widget for the JSON ones. */
export type Widget = 'text' | 'url' | 'secret' | 'int' | 'bool' | 'lines' | 'choices' | 'select' | 'map' | 'json' | 'parent' | 'time_zone'
const URL_FIELDS = new Set([
  'dashboard_url',
  'logo_url',
  'favicon_url',
  'files_base_url',
  'csm_spa_url',
  'tms_spa_url',
  'web_client_url',
  'base_url',
  'ios_store_url',
  'android_store_url',
  'api_endpoint',
  'litmetrix_url',
  'cognitive_test_results_url',
  'terms',
  'privacy',
  'tms_url',
  'task_external_preview_url',
  'token_sso_url',
  'agent_endpoint_url',
])
export const CHOICES: Partial<Record<RealmField, readonly string[]>> = {
  allowed_signin: SIGNIN_METHODS,
  allowed_roles: ['manager', 'root', 'support', 'admin'],
  allowed_award: ['life', 'product'],
}
/** Fields holding exactly one of a few values. */
export const SELECTS: Partial<Record<RealmField, readonly string[]>> = {
  captcha_type: CAPTCHA_TYPES,
}

export function widgetOf(field: RealmField): Widget {
  if (field === 'parent_code') return 'parent'
  if (field === 'time_zone') return 'time_zone'
  if (CHOICES[field]) return 'choices'
  if (SELECTS[field]) return 'select'
  if (field === 'auth_type') return 'map'
  if (field === 'irm_servers' || field === 'room_servers' || field === 'report_reasons') return 'lines'
  const type = realmEntity.fields[field]?.type
  if (type === 'bool') return 'bool'
  if (type === 'int' || type === 'real') return 'int'
  if (type === 'secret') return 'secret'
  if (type === 'json') return 'json'
  return URL_FIELDS.has(field) ? 'url' : 'text'
}

/** PUT /mas/realm/{realm}/word_filter: the sentences masked in users' text (seed 002 §3). */
export const WordFilterBody = v.object({
  sentences: v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(2, 'validation.min_length'), v.maxLength(100, 'validation.max_length'))),
    v.maxLength(2000, 'validation.max_items'),
    v.transform((xs) => [...new Set(xs)]),
  ),
})

/** An e-mail or web domain: labels with at least one dot. */
export const Domain = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, 'validation.domain'))
/** PUT /mas/realm/{realm}/exemption: the exemption domains. */
export const ExemptionBody = v.object({
  domains: v.pipe(
    v.array(Domain),
    v.maxLength(500, 'validation.max_items'),
    v.transform((xs) => [...new Set(xs)]),
  ),
})

/** Platform-wide configuration (GET/PUT /mas/config): words filtered in every realm, media hosts no link may use,
 * and the defaults of new realms. */
export const GlobalConfig = v.object({
  default_word_filter: WordFilterBody.entries.sentences,
  blocked_media_hosts: v.pipe(
    v.array(v.pipe(v.string(), v.trim(), v.toLowerCase(), v.minLength(3, 'validation.min_length'), v.maxLength(200, 'validation.max_length'))),
    v.maxLength(200, 'validation.max_items'),
  ),
  default_time_zone: RealmUpdate.entries.time_zone.wrapped,
  default_allowed_signin: RealmUpdate.entries.allowed_signin.wrapped,
})
export type GlobalConfig = v.InferOutput<typeof GlobalConfig>
export const GlobalConfigUpdate = v.partial(GlobalConfig)
export const GLOBAL_CONFIG_DEFAULTS: GlobalConfig = {
  default_word_filter: [],
  blocked_media_hosts: [],
  default_time_zone: 'America/Sao_Paulo',
  default_allowed_signin: ['iptv'],
}

/**
 * A realm's STUN and TURN servers for its conferences (issue 20; `GET|PUT /mas/realm/{realm}/rtc`, table `realm_rtc`):
 * `stun:`/`stuns:` addresses, `turn:`/`turns:` addresses (optionally `?transport=udp|tcp`), and the TURN username and
 * credential (a secret: answered masked; sending the mask back keeps it). TURN addresses need both.
 */
const IceUrl = (schemes: string) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(300, 'validation.max_length'),
    v.regex(new RegExp(`^(${schemes}):(\\[[0-9a-f:.]+\\]|[a-z0-9.-]+)(:\\d{1,5})?(\\?transport=(udp|tcp))?$`, 'i'), 'validation.ice_url'),
  )
const iceList = (schemes: string) =>
  v.pipe(
    v.array(IceUrl(schemes)),
    v.maxLength(10, 'validation.max_items'),
    v.check((xs) => new Set(xs).size === xs.length, 'validation.duplicate'),
  )
export const RtcServersBody = v.pipe(
  v.object({
    stun_urls: v.optional(iceList('stuns?'), []),
    turn_urls: v.optional(iceList('turns?'), []),
    turn_username: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200, 'validation.max_length')), ''),
    turn_credential: v.optional(v.pipe(v.string(), v.maxLength(500, 'validation.max_length')), ''),
  }),
  v.forward(
    v.check((b) => b.turn_urls.length === 0 || b.turn_username !== '', 'validation.required'),
    ['turn_username'],
  ),
  v.forward(
    v.check((b) => b.turn_urls.length === 0 || b.turn_credential !== '', 'validation.required'),
    ['turn_credential'],
  ),
)
export type RtcServersBody = v.InferOutput<typeof RtcServersBody>
export type RealmRtc = RtcServersBody & { updated_at: string | null }

/** The `RTCIceServer` list the browsers get with their live tickets (empty without servers). */
export function iceServers(rtc: RtcServersBody | null): { urls: string[]; username?: string; credential?: string }[] {
  if (!rtc) return []
  return [
    ...(rtc.stun_urls.length ? [{ urls: rtc.stun_urls }] : []),
    ...(rtc.turn_urls.length ? [{ urls: rtc.turn_urls, username: rtc.turn_username, credential: rtc.turn_credential }] : []),
  ]
}
