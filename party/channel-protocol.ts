import * as v from 'valibot'

/**
 * Wire protocol of the channel party (issue 13 "Live: the channel party"), imported by the party and by its clients
 * (the console's live view, the participant view, the tests and the bench). Every client message is validated with
 * these schemas; a refused one is answered with an `error` (or `slow_down`) event naming its cause, never dropped.
 *
 * Connecting: `wss://<host>/parties/channel/<channelId>?ticket=<ticket>&since=<seq>` — the ticket from
 * `POST /api/channel/live/{id}/ticket` (members, signed-in users) or `…/guest` (guests, public channels); `since` is
 * the last chat sequence the client saw (omit on a first join): the welcome carries every message after it.
 */

/** Roles inside the room: a member's channel permission, `participant` (a signed-in non-member) or `guest`. */
export const LIVE_ROLES = ['owner', 'admin', 'operator', 'recorder', 'mobile', 'participant', 'guest'] as const
export type LiveRole = (typeof LIVE_ROLES)[number]

/** Roles that speak in a moderated chat and set a moderated topic: the channel's operators. */
export const OPERATOR_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator', 'recorder'])
/** Roles that may ban and promote (the recorder, a chat moderator, mutes and removes only). */
export const MANAGER_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator'])
/** Collaborators: the connected staff of the channel, capped by the `collaborator_limit` mode. */
export const COLLABORATOR_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator', 'recorder'])

export const CHAT_MAX = 2000
export const TOPIC_MAX = 200

const ClientId = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[\w-]+$/, 'A client id is letters, digits, _ and -.'))

export const Attachment = v.object({
  url: v.pipe(v.string(), v.url('An attachment needs a URL.'), v.maxLength(1000), v.regex(/^https?:\/\//i, 'An attachment URL is http(s).')),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  mime: v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'A MIME type is type/subtype.'), v.maxLength(100)),
  size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5_000_000_000))),
})
export type Attachment = v.InferOutput<typeof Attachment>

export const MOD_ACTIONS = ['mute', 'unmute', 'remove', 'ban', 'promote'] as const
export type ModAction = (typeof MOD_ACTIONS)[number]

export const ChannelClientMessage = v.variant('type', [
  /** A chat message: text, an attachment, or both; `id` is the client's, a resend is answered with the same ack. */
  v.pipe(
    v.object({
      type: v.literal('chat'),
      id: ClientId,
      text: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(CHAT_MAX, `A message holds at most ${CHAT_MAX} characters.`)), ''),
      attachment: v.optional(Attachment),
    }),
    v.check((m) => m.text.length > 0 || m.attachment !== undefined, 'A message needs text or an attachment.'),
  ),
  v.object({ type: v.literal('hand'), raised: v.boolean() }),
  v.object({ type: v.literal('topic'), topic: v.pipe(v.string(), v.trim(), v.maxLength(TOPIC_MAX, `A topic holds at most ${TOPIC_MAX} characters.`)) }),
  /** A moderator action on a participant (by their nick in the room). */
  v.object({ type: v.literal('mod'), action: v.picklist(MOD_ACTIONS), nick: v.pipe(v.string(), v.minLength(1), v.maxLength(160)) }),
  /** Operators switch moderated chat and moderated topic for this live session (the channel's modes are the default). */
  v.object({ type: v.literal('settings'), moderated_chat: v.optional(v.boolean()), moderated_topic: v.optional(v.boolean()) }),
  /** A password channel's answer to `password_required`. */
  v.object({ type: v.literal('password'), password: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) }),
  /** The owner or an admin ends the live session for everyone. */
  v.object({ type: v.literal('end') }),
])
export type ChannelClientMessage = v.InferOutput<typeof ChannelClientMessage>

export interface LiveMember {
  /** Connection-independent identity: the user's nick, or `guest:<id>` for a guest. */
  nick: string
  name: string
  role: LiveRole
  muted: boolean
  hand: boolean
  since: number
}

export interface ChatMessage {
  seq: number
  id: string
  nick: string
  name: string
  role: LiveRole
  text: string
  attachment?: Attachment
  /** Server time, epoch ms. */
  at: number
}

export interface LiveSettings {
  moderated_chat: boolean
  moderated_topic: boolean
  text_only: boolean
  audio_only: boolean
  attachments: boolean
  persistent: boolean
}

/** Why something was refused (the `cause` of an `error` event; the clients translate `live.cause.<cause>`). */
export const LIVE_CAUSES = [
  'invalid_message',
  'not_found',
  'unavailable',
  'banned',
  'members_only',
  'room_full',
  'environment_full',
  'collaborators_full',
  'password_required',
  'wrong_password',
  'moderated',
  'muted',
  'audio_only',
  'text_only',
  'attachments_disabled',
  'forbidden',
  'not_present',
  'guest',
  'removed',
  'ended',
] as const
export type LiveCause = (typeof LIVE_CAUSES)[number]

export const SLOW_DOWN_CAUSES = ['per_second', 'min_interval', 'per_day', 'drop_rate'] as const
export type SlowDownCause = (typeof SLOW_DOWN_CAUSES)[number]

export type ChannelServerMessage =
  | {
      type: 'welcome'
      you: LiveMember
      channel: { id: string; name: string }
      topic: string
      settings: LiveSettings
      members: LiveMember[]
      /** Every chat message after the client's `since` (the recent tail on a first join). */
      messages: ChatMessage[]
      /** The room's last chat sequence. */
      seq: number
      /** Server time, epoch ms. */
      now: number
    }
  | { type: 'password_required' }
  | { type: 'joined'; member: LiveMember }
  | { type: 'left'; nick: string }
  | { type: 'member'; member: LiveMember }
  | { type: 'chat'; message: ChatMessage }
  | { type: 'ack'; id: string; seq: number }
  | { type: 'topic'; topic: string; by: string }
  | { type: 'settings'; settings: LiveSettings }
  | { type: 'slow_down'; cause: SlowDownCause; retry_after_ms: number; ref?: string }
  | { type: 'error'; cause: LiveCause; message: string; ref?: string }
  | { type: 'removed'; cause: 'removed' | 'banned' | 'ended' }
  | { type: 'ended' }

/** Close codes the party uses after telling why (an `error` or `removed` event first). */
export const CLOSE_REFUSED = 4003
export const CLOSE_REMOVED = 4004
export const CLOSE_ENDED = 4005
