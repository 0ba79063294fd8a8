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
    /** The realm's maximum bitrate per sender (kbps; issue 20). */
    max_bitrate_kbps: number
    /**
     * Transmission limits (issue 20; see txPeriod): the realm's transmission seconds per user per renewal period
     * (`room_tx_weekly_seconds`, -1 none) and the period in days (`room_tx_renewal_days`); in console rooms only, the
     * realm's `room_tx_duration` (seconds one transmission may last, 0 none) and `room_tx_interval` (seconds without
     * transmitting before the count starts again). Channels answer 0 for both.
     */
    tx_weekly_seconds: number
    tx_renewal_days: number
    tx_duration_seconds: number
    tx_interval_seconds: number
  }
  word_filter: { sentences: string[]; links: boolean; exempt: string[] }
  /** The channel's highest stored chat sequence (a new room continues after it). */
  last_seq: number
  /**
   * Set for a console room's live session (the room party, party/room.ts, reads `/api/room/live/{id}/state` in this
   * same shape: `channel` is the room, `members` its members as `participant`). `refuse`: why nobody may be live in
   * it now (closed, itself or its parent; outside its activity window) — the party refuses joins and ends a session.
   * `parent_name`: a breakout's parent room's name; `breakouts`: a top-level room's open breakout rooms (issue 20 live
   * breakouts; empty for a breakout).
   */
  room?: {
    type: string
    recording: boolean
    parent_id: string | null
    parent_name?: string | null
    refuse: 'closed' | 'not_active' | null
    breakouts?: { id: string; name: string }[]
  }
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

/**
 * The transmission renewal periods (issue 20): fixed windows of `days` days starting Monday 1970-01-05 00:00 UTC, so a
 * 7-day period runs Monday to Monday (UTC) and every party and the realm API agree on it without asking each other.
 */
const PERIOD_ANCHOR_MS = Date.UTC(1970, 0, 5)
export function txPeriod(now: number, days: number): { start: number; end: number } {
  const len = Math.max(1, Math.floor(days)) * 86_400_000
  const start = PERIOD_ANCHOR_MS + Math.floor((now - PERIOD_ANCHOR_MS) / len) * len
  return { start, end: start + len }
}

const TxSeconds = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(366 * 86_400))

/**
 * The party's transmission count (`POST /api/{channel|room}/live/{id}/tx`): for the period starting `period_start`
 * (txPeriod), the seconds each nick has transmitted in this live room so far — an absolute count, stored as the
 * highest value seen, so a resend or a late retry never counts twice. The answer gives each nick's seconds here and
 * in the realm's other live rooms for that period.
 */
export const LiveTxUsage = v.object({
  period_start: v.pipe(v.number(), v.integer(), v.minValue(0)),
  usage: v.pipe(
    v.record(LiveNick, TxSeconds),
    v.check((r) => Object.keys(r).length >= 1 && Object.keys(r).length <= 100, 'validation.max_items'),
  ),
})
export type LiveTxUsage = v.InferOutput<typeof LiveTxUsage>
export interface LiveTxAnswer {
  period_start: number
  usage: Record<string, { here: number; elsewhere: number }>
}
