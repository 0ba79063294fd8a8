import * as v from 'valibot'
import { defineEntity } from './entity'
import { Id } from './tms/common'
import { WebUrl } from './common'

/**
 * Channels (seed 002 §3 "Channel", §5, §6, §8): name, category, banner, avatar, welcome messages (one per language),
 * extra settings, the modes of §3 as typed fields, the Djinni settings ("My Djinni") and members with their
 * permission. Members are stored in `channel_member`; the create body carries the first members (exactly one owner),
 * and the member endpoints add, change and remove them afterwards, keeping the one-owner rule.
 */
export const CHANNEL_LANGUAGES = ['pt-BR', 'en-US', 'es-ES'] as const
export const MEMBER_PERMISSIONS = ['owner', 'admin', 'banned', 'operator', 'recorder', 'mobile'] as const
export type MemberPermission = (typeof MEMBER_PERMISSIONS)[number]

/** Banner and avatar sizes (seed 002 §9 leaves them to us): checked on the stored upload by the channel API. */
export const BANNER_SIZE = { minWidth: 1200, minHeight: 300, maxWidth: 4096, maxHeight: 1024 } as const
export const AVATAR_SIZE = { minWidth: 128, minHeight: 128, maxWidth: 1024, maxHeight: 1024, square: true } as const

const text = (max: number) => v.pipe(v.string('validation.required'), v.trim(), v.maxLength(max, 'validation.max_length'))

export const ChannelName = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.minLength(2, 'validation.min_length'),
  v.maxLength(80, 'validation.max_length'),
  v.regex(/^[^/\\?#%<>]+$/, 'validation.channel.name'),
)

export const MemberNick = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.toLowerCase(),
  v.minLength(2, 'validation.min_length'),
  v.maxLength(120, 'validation.max_length'),
)

export const ChannelMemberInput = v.object({
  nick: MemberNick,
  permission: v.picklist(MEMBER_PERMISSIONS, 'validation.picklist'),
})
export type ChannelMemberInput = v.InferOutput<typeof ChannelMemberInput>
export const MemberPermissionInput = v.object({ permission: v.picklist(MEMBER_PERMISSIONS, 'validation.picklist') })

const bool = (fallback: boolean) => v.optional(v.boolean('validation.boolean'), fallback)
/** An integer within [min, max] (0 means "no limit of the channel's own": the realm's applies). */
const count = (min: number, max: number, fallback: number) =>
  v.optional(
    v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(min, 'validation.min_value'), v.maxValue(max, 'validation.max_value')),
    fallback,
  )
/** A number within [min, max] in steps of `step` from `min` (seed 000 §9 voice ranges). */
const stepped = (min: number, max: number, step: number, fallback: number) =>
  v.optional(
    v.pipe(
      v.number('validation.number'),
      v.finite('validation.number'),
      v.minValue(min, 'validation.min_value'),
      v.maxValue(max, 'validation.max_value'),
      v.check((n) => Math.abs((n - min) / step - Math.round((n - min) / step)) < 1e-6, 'validation.step'),
    ),
    fallback,
  )

/** The boolean modes of seed 002 §3, in the order the screen shows them. */
export const SWITCH_MODES = [
  'session_recording',
  'metaverse',
  'secret',
  'private',
  'show_banner',
  'featured',
  'global_featured',
  'mute_collaborators',
  'word_filter',
  'bitrate_reduction',
  'invite_only',
  'keep_listed',
  'audio_only',
  'text_only',
  'disable_chat_attachments',
  'show_user_list',
  'moderated_chat',
  'persistent',
  'moderated_topic',
  'auto_operator',
  'my_djinni',
  'csm',
] as const
export type SwitchMode = (typeof SWITCH_MODES)[number]
/** Switches that start on (everything else starts off). */
const ON_BY_DEFAULT: ReadonlySet<SwitchMode> = new Set(['show_banner', 'word_filter', 'show_user_list', 'keep_listed'])

/** The numeric modes with their limits (0: the realm's limit applies). */
export const NUMBER_MODES = {
  max_bitrate_kbps: { min: 0, max: 20000, fallback: 0 },
  bandwidth_share_limit: { min: 0, max: 100, fallback: 0 },
  transmissions_limit: { min: 0, max: 100, fallback: 0 },
  collaborator_limit: { min: 0, max: 1000, fallback: 0 },
  user_limit: { min: 0, max: 100000, fallback: 0 },
  auto_voice_count: { min: 0, max: 1000, fallback: 0 },
} as const
export type NumberMode = keyof typeof NUMBER_MODES

/** Layout templates a channel's clients know (seed 002 §3 "template"; values are ours). */
export const CHANNEL_TEMPLATES = ['conference', 'classroom', 'webinar', 'stage'] as const

export const ChannelModes = v.pipe(
  v.object({
    ...(Object.fromEntries(SWITCH_MODES.map((m) => [m, bool(ON_BY_DEFAULT.has(m))])) as Record<SwitchMode, ReturnType<typeof bool>>),
    ...(Object.fromEntries(Object.entries(NUMBER_MODES).map(([k, n]) => [k, count(n.min, n.max, n.fallback)])) as Record<NumberMode, ReturnType<typeof count>>),
    template: v.optional(v.picklist(CHANNEL_TEMPLATES, 'validation.picklist'), 'conference'),
  }),
  v.check((m) => !(m.audio_only && m.text_only), 'validation.channel.audio_and_text'),
)
export type ChannelModes = v.InferOutput<typeof ChannelModes>

export const DJINNI_INTERACTIONS = ['all', 'text', 'voice'] as const
export const DJINNI_STATES = ['idle', 'speaking', 'hidden'] as const

/** Djinni settings ("My Djinni", seed 002 §3) with the voice ranges of seed 000 §9. */
export const DjinniSettings = v.object({
  interaction: v.optional(v.picklist(DJINNI_INTERACTIONS, 'validation.picklist'), 'all'),
  voice_type: count(0, 4, 0),
  avatar: v.optional(WebUrl({ empty: true }), ''),
  speaking_video: v.optional(WebUrl({ empty: true }), ''),
  idle_video: v.optional(WebUrl({ empty: true }), ''),
  initial_state: v.optional(v.picklist(DJINNI_STATES, 'validation.picklist'), 'idle'),
  language: v.optional(v.picklist(CHANNEL_LANGUAGES, 'validation.picklist'), 'pt-BR'),
  context: v.optional(text(2000), ''),
  style: v.optional(text(200), ''),
  tempo: stepped(0.05, 4, 0.05, 1),
  pitch: stepped(-8, 8, 0.2, 0),
  rate: stepped(0.05, 4, 0.05, 1),
})
export type DjinniSettings = v.InferOutput<typeof DjinniSettings>

export const WelcomeMessage = v.object({
  language: v.picklist(CHANNEL_LANGUAGES, 'validation.picklist'),
  message: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(1000, 'validation.max_length')),
})

/** Extra settings: free keys of the channel's clients (letters, digits, `_`), short text values. */
export const ExtraSettings = v.pipe(
  v.record(
    v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,39}$/, 'validation.channel.extra_key')),
    v.pipe(v.string('validation.required'), v.trim(), v.maxLength(500, 'validation.max_length')),
  ),
  v.check((r) => Object.keys(r).length <= 30, 'validation.max_items'),
)

const password = v.pipe(v.string('validation.required'), v.minLength(4, 'validation.min_length'), v.maxLength(64, 'validation.max_length'))

/** Fields of a channel common to create and update. */
const channelFields = {
  name: ChannelName,
  category_id: v.optional(v.nullable(Id), null),
  /** Uploaded images (POST /mas/file), checked against BANNER_SIZE / AVATAR_SIZE; `''` removes. */
  banner_file_id: v.optional(v.union([v.literal(''), Id], 'validation.id')),
  avatar_file_id: v.optional(v.union([v.literal(''), Id], 'validation.id')),
  welcome: v.optional(
    v.pipe(
      v.array(WelcomeMessage),
      v.maxLength(CHANNEL_LANGUAGES.length, 'validation.max_items'),
      v.check((ws) => new Set(ws.map((w) => w.language)).size === ws.length, 'validation.channel.welcome_language'),
    ),
    [],
  ),
  extra: v.optional(ExtraSettings, {}),
  modes: v.optional(ChannelModes, {}),
  djinni: v.optional(DjinniSettings, {}),
  /** A new password for a password channel (stored hashed, never answered); absent keeps the current one. */
  password: v.optional(password),
  /** Removes the channel's password. */
  password_remove: v.optional(v.boolean('validation.boolean'), false),
}

const members = v.pipe(
  v.array(ChannelMemberInput),
  v.maxLength(500, 'validation.max_items'),
  v.check((ms) => new Set(ms.map((m) => m.nick)).size === ms.length, 'validation.channel.member_duplicate'),
)

export const ChannelCreate = v.object({ ...channelFields, members })
export type ChannelCreate = v.InferOutput<typeof ChannelCreate>
/** An update; `members`, when given, replaces the member list (the one-owner rule applies to the result). */
export const ChannelUpdate = v.object({ ...channelFields, members: v.optional(members) })
export type ChannelUpdate = v.InferOutput<typeof ChannelUpdate>

export interface ChannelMember {
  channel_id: string
  nick: string
  name: string
  permission: MemberPermission
  added_at: string
  added_by: string
}

export type Channel = {
  id: string
  realm: string
  name: string
  category_id: string | null
  /** The category's name, in list answers only. */
  category_name?: string | null
  banner_file_id: string
  banner_url: string
  avatar_file_id: string
  avatar_url: string
  welcome: v.InferOutput<typeof WelcomeMessage>[]
  extra: Record<string, string>
  modes: ChannelModes
  djinni: DjinniSettings
  has_password: boolean
  owner: string
  member_count: number
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

export const channelEntity = defineEntity<Omit<Channel, 'category_name'>>({
  name: 'channel',
  table: 'channel',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    category_id: { type: 'text', list: true, filter: 'eq', nullable: true },
    banner_file_id: { type: 'text' },
    banner_url: { type: 'text' },
    avatar_file_id: { type: 'text' },
    avatar_url: { type: 'text', list: true },
    welcome: { type: 'json' },
    extra: { type: 'json' },
    modes: { type: 'json' },
    djinni: { type: 'json' },
    has_password: { type: 'bool' },
    owner: { type: 'text', sort: true, list: true, filter: 'eq' },
    member_count: { type: 'int', sort: true, list: true },
    created_at: { type: 'text', sort: true, list: true },
    created_by: { type: 'text' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: 'name',
})
