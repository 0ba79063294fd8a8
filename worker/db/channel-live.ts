import type { LiveChannelState, LiveSessionEnd, StoredChatMessage } from '#shared/schemas/channel-live'
import { UNRECORDED } from './csm-recording'
import { globalConfigFrom } from './global-config'
import { wordFilterReads } from './word-filter'

/**
 * The channel party's reads and writes (issue 13 "Live"): channel state, chat history, ended sessions. Realm-scoped.
 * The chat functions also serve the room party (`target` 'room': table `room_message`, worker/db/room-live.ts).
 */

export type ChatTarget = 'channel' | 'room'
const CHAT: Record<ChatTarget, { table: string; column: string }> = {
  channel: { table: 'channel_message', column: 'channel_id' },
  room: { table: 'room_message', column: 'room_id' },
}

type WordFilterRow = { sentences: string; exempt: string; links: number | null; value: string | null; updated_at: string | null; updated_by: string | null }

/** The party's word filter from `wordFilterReads`' first result: the realm's sentences and the platform's defaults. */
export function liveWordFilter(wf: WordFilterRow): LiveChannelState['word_filter'] {
  const global = wf.value === null ? null : { value: wf.value, updated_at: wf.updated_at ?? '', updated_by: wf.updated_by ?? '' }
  return {
    sentences: [...(JSON.parse(wf.sentences) as string[]), ...globalConfigFrom(global).default_word_filter],
    links: wf.links === 1,
    exempt: JSON.parse(wf.exempt) as string[],
  }
}

type ChannelRow = {
  id: string
  realm: string
  name: string
  owner: string
  category_id: string | null
  modes: string
  has_password: number
  password_hash: string
  msg_per_second: number
  msg_min_interval_seconds: number
  msg_per_day: number
  msg_drop_rate: number
  max_users_per_room: number
  room_attachment_disabled: number
  max_bitrate_kbps: number
  room_tx_weekly_seconds: number
  room_tx_renewal_days: number
  last_seq: number | null
}

/** Everything the party needs about a channel and its realm, in one batch; null for a channel the realm lacks. */
export async function liveChannelState(db: D1Database, realm: string, channelId: string): Promise<LiveChannelState | null> {
  const [channel, members, ...filter] = await db.batch([
    db
      .prepare(
        `SELECT c.id, c.realm, c.name, c.owner, c.category_id, c.modes, c.has_password, c.password_hash,
                r.msg_per_second, r.msg_min_interval_seconds, r.msg_per_day, r.msg_drop_rate, r.max_users_per_room,
                r.room_attachment_disabled, r.max_bitrate_kbps, r.room_tx_weekly_seconds, r.room_tx_renewal_days,
                (SELECT MAX(seq) FROM channel_message m WHERE m.channel_id = c.id) AS last_seq
         FROM channel c JOIN realm r ON r.code = c.realm WHERE c.realm = ? AND c.id = ?`,
      )
      .bind(realm, channelId),
    db.prepare('SELECT nick, permission FROM channel_member WHERE realm = ? AND channel_id = ?').bind(realm, channelId),
    ...wordFilterReads(db, realm),
  ])
  const row = channel.results[0] as ChannelRow | undefined
  if (!row) return null
  return {
    channel: {
      id: row.id,
      realm: row.realm,
      name: row.name,
      owner: row.owner,
      category_id: row.category_id,
      modes: JSON.parse(row.modes || '{}') as Record<string, unknown>,
      has_password: row.has_password === 1,
      password_hash: row.password_hash,
    },
    members: Object.fromEntries((members.results as { nick: string; permission: string }[]).map((m) => [m.nick, m.permission])),
    limits: {
      msg_per_second: row.msg_per_second,
      msg_min_interval_seconds: row.msg_min_interval_seconds,
      msg_per_day: row.msg_per_day,
      msg_drop_rate: row.msg_drop_rate,
      max_users_per_room: row.max_users_per_room,
      room_attachment_disabled: row.room_attachment_disabled === 1,
      max_bitrate_kbps: row.max_bitrate_kbps,
      tx_weekly_seconds: row.room_tx_weekly_seconds,
      tx_renewal_days: row.room_tx_renewal_days,
      // room_tx_duration / room_tx_interval are the realm's room settings: channels do not apply them.
      tx_duration_seconds: 0,
      tx_interval_seconds: 0,
    },
    word_filter: liveWordFilter(filter[0].results[0] as WordFilterRow),
    last_seq: row.last_seq ?? 0,
  }
}

/** Inserts a batch of chat messages; a (channel, seq) already stored is left as it is (idempotent resend). */
export function insertChatStatements(
  db: D1Database,
  realm: string,
  channelId: string,
  messages: StoredChatMessage[],
  target: ChatTarget = 'channel',
): D1PreparedStatement[] {
  const { table, column } = CHAT[target]
  return messages.map((m) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO ${table} (realm, ${column}, seq, client_id, nick, name, role, text, attachment, session_id, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        realm,
        channelId,
        m.seq,
        m.id,
        m.nick,
        m.name,
        m.role,
        m.text,
        m.attachment ? JSON.stringify(m.attachment) : null,
        m.session_id,
        new Date(m.at).toISOString(),
      ),
  )
}

type MessageRow = {
  seq: number
  client_id: string
  nick: string
  name: string
  role: string
  text: string
  attachment: string | null
  session_id: string
  created_at: string
}

/** Chat messages of a channel after `after` (oldest first, at most `limit`), or the last `limit` when `after` is null. */
export async function listChatMessages(
  db: D1Database,
  realm: string,
  channelId: string,
  after: number | null,
  limit: number,
  target: ChatTarget = 'channel',
): Promise<StoredChatMessage[]> {
  const { table, column } = CHAT[target]
  const stmt =
    after === null
      ? db
          .prepare(
            `SELECT * FROM (SELECT seq, client_id, nick, name, role, text, attachment, session_id, created_at FROM ${table}
             WHERE realm = ? AND ${column} = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
          )
          .bind(realm, channelId, limit)
      : db
          .prepare(
            `SELECT seq, client_id, nick, name, role, text, attachment, session_id, created_at FROM ${table}
             WHERE realm = ? AND ${column} = ? AND seq > ? ORDER BY seq LIMIT ?`,
          )
          .bind(realm, channelId, after, limit)
  const { results } = await stmt.all<MessageRow>()
  return results.map((r) => ({
    seq: r.seq,
    id: r.client_id,
    nick: r.nick,
    name: r.name,
    role: r.role,
    text: r.text,
    ...(r.attachment ? { attachment: JSON.parse(r.attachment) as StoredChatMessage['attachment'] } : {}),
    at: Date.parse(r.created_at),
    session_id: r.session_id,
  }))
}

/**
 * Stores an ended live session with its metrics; the same id stored again is ignored (idempotent hand-over), and so
 * is a session whose metrics went to its recordings' sessions (worker/db/csm-recording.ts, run before it).
 */
export function insertLiveSessionStatement(
  db: D1Database,
  realm: string,
  channel: { id: string; name: string; owner: string; category_id: string | null },
  s: LiveSessionEnd,
): D1PreparedStatement {
  return endedSessionStatement(db, realm, { ...channel, channel_id: channel.id, topic: s.topic, recorded_in: 'live' }, s)
}

/**
 * The `csm_session` row of an ended live (a channel's, or a recorded room's): its title, owner and category come from
 * the channel or room; ignored when the id is stored or the metrics went to its recordings' sessions.
 */
export function endedSessionStatement(
  db: D1Database,
  realm: string,
  from: { name: string; owner: string; category_id: string | null; channel_id: string; topic: string; recorded_in: 'live' | 'room' },
  s: LiveSessionEnd,
): D1PreparedStatement {
  const started = new Date(s.started_at).toISOString()
  return db
    .prepare(
      `INSERT OR IGNORE INTO csm_session (id, realm, title, owner, channel_id, channel_topic, category_ids, reference_date, recorded_in, status,
         video_status, started_at, ended_at, ended_by, live_seconds, live_durations, peak_participants, chat_count, attachment_count, hand_raise_count, created_at)
       SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, 'finished', 'no_video', ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE ${UNRECORDED}`,
    )
    .bind(
      s.id,
      realm,
      from.name,
      from.owner,
      from.channel_id,
      from.topic,
      JSON.stringify(from.category_id ? [from.category_id] : []),
      started.slice(0, 10),
      from.recorded_in,
      started,
      new Date(s.ended_at).toISOString(),
      s.ended_by,
      Math.max(0, Math.round((s.ended_at - s.started_at) / 1000)),
      JSON.stringify(s.live_durations),
      s.peak_participants,
      s.chat_count,
      s.attachment_count,
      s.hand_raise_count,
      new Date().toISOString(),
      realm,
      s.id,
    )
}

export type LiveSessionRow = {
  id: string
  channel_id: string
  channel_topic: string
  title: string
  owner: string
  status: string
  /** Seed 002 §3 video status; `video_seconds` the recording's duration (issue 20 recording), null without one. */
  video_status: string
  video_seconds: number | null
  started_at: string
  ended_at: string
  ended_by: string
  live_seconds: number
  live_durations: Record<string, number>
  peak_participants: number
  chat_count: number
  attachment_count: number
  hand_raise_count: number
}

/** The channel's ended live sessions, newest first (at most 50). */
export async function listLiveSessions(db: D1Database, realm: string, channelId: string): Promise<LiveSessionRow[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, s.channel_id, s.channel_topic, s.title, s.owner, s.status, s.video_status, s.started_at, s.ended_at, s.ended_by, s.live_seconds,
              s.live_durations, s.peak_participants, s.chat_count, s.attachment_count, s.hand_raise_count,
              (SELECT r.duration_seconds FROM csm_recording r WHERE r.session_id = s.id AND r.status = 'complete') AS video_seconds
       FROM csm_session s WHERE s.realm = ? AND s.channel_id = ? ORDER BY s.started_at DESC LIMIT 50`,
    )
    .bind(realm, channelId)
    .all<Omit<LiveSessionRow, 'live_durations'> & { live_durations: string }>()
  return results.map((r) => ({ ...r, live_durations: JSON.parse(r.live_durations) as Record<string, number> }))
}
