import * as v from 'valibot'

/**
 * The realm API calls of the channel party (`/api/channel/live/{id}/…`, worker/api/channel/live.ts): what the party
 * reads about a channel, and the history and metrics it hands over. The party authenticates with a service ticket
 * (`x-party-ticket`, party `channel-api`, signed with the shared PARTY_SECRET), never a user session.
 */

/** What the party needs about a channel and its realm (cached per room for a few seconds). */
export interface LiveChannelState {
  channel: {
    id: string
    realm: string
    name: string
    owner: string
    category_id: string | null
    modes: Record<string, unknown>
    has_password: boolean
    /** The PBKDF2 hash of a password channel's password ('' without one): the party checks the guest's answer. */
    password_hash: string
  }
  /** Members by nick → permission (owner, admin, banned, operator, recorder, mobile). */
  members: Record<string, string>
  limits: {
    msg_per_second: number
    msg_min_interval_seconds: number
    msg_per_day: number
    msg_drop_rate: number
    max_users_per_room: number
    room_attachment_disabled: boolean
  }
  word_filter: { sentences: string[]; links: boolean; exempt: string[] }
  /** The channel's highest stored chat sequence (a new room continues after it). */
  last_seq: number
}

export const StoredChatMessage = v.object({
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  nick: v.pipe(v.string(), v.minLength(1), v.maxLength(160)),
  name: v.pipe(v.string(), v.maxLength(200)),
  role: v.pipe(v.string(), v.maxLength(20)),
  text: v.pipe(v.string(), v.maxLength(2000)),
  attachment: v.optional(
    v.object({
      url: v.pipe(v.string(), v.maxLength(1000)),
      name: v.pipe(v.string(), v.maxLength(200)),
      mime: v.pipe(v.string(), v.maxLength(100)),
      size: v.optional(v.number()),
    }),
  ),
  at: v.pipe(v.number(), v.integer(), v.minValue(0)),
  session_id: v.optional(v.pipe(v.string(), v.maxLength(64)), ''),
})
export type StoredChatMessage = v.InferOutput<typeof StoredChatMessage>

/** A batch of chat messages from the party; the (channel, seq) pair is the idempotency key: a resent batch counts once. */
export const ChatBatch = v.object({ messages: v.pipe(v.array(StoredChatMessage), v.minLength(1), v.maxLength(500)) })

const count = v.pipe(v.number(), v.integer(), v.minValue(0))

/**
 * An ended live session with the metrics of seed 002 §3 "Session" (live durations, chat count, attachment count,
 * hand-raise count); `id` is the party's idempotency key.
 */
export const LiveSessionEnd = v.object({
  id: v.pipe(v.string(), v.regex(/^[\w-]{8,64}$/)),
  topic: v.pipe(v.string(), v.maxLength(200)),
  started_at: count,
  ended_at: count,
  ended_by: v.pipe(v.string(), v.maxLength(160)),
  peak_participants: count,
  /** Seconds each participant was present, by nick (the seed's "live durations"). */
  live_durations: v.pipe(
    v.record(v.pipe(v.string(), v.maxLength(160)), count),
    v.check((r) => Object.keys(r).length <= 100_000),
  ),
  chat_count: count,
  attachment_count: count,
  hand_raise_count: count,
})
export type LiveSessionEnd = v.InferOutput<typeof LiveSessionEnd>

/** A moderator's ban or promotion, persisted as the member's permission. */
export const LiveMemberChange = v.object({ permission: v.picklist(['banned', 'operator'] as const), by: v.pipe(v.string(), v.maxLength(160)) })

/** A guest's name on a public channel (shown to the room). */
export const GuestJoin = v.object({
  name: v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(40, 'validation.max_length')),
})

/** How often the party renews the leases of who is present (the realm API keeps a lease 120 s: a crashed party's run out). */
export const LIVE_RENEW_MS = 60_000

const LiveNick = v.pipe(v.string(), v.minLength(1), v.maxLength(160))
const LiveNicks = v.pipe(v.array(LiveNick), v.maxLength(10_000))

/**
 * The party's presence call (`POST /api/channel/live/{id}/presence`): `present` (every LIVE_RENEW_MS, the nicks
 * present in the room, possibly none) renews their leases in the realm's live environment; `left` frees the places of
 * who just left. At least one of the two.
 */
export const LivePresence = v.pipe(
  v.object({ present: v.optional(LiveNicks), left: v.optional(v.pipe(LiveNicks, v.minLength(1))) }),
  v.check((b) => b.present !== undefined || b.left !== undefined, 'validation.required'),
)
export type LivePresence = v.InferOutput<typeof LivePresence>
