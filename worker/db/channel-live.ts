import type { LiveChannelState, LiveSessionEnd, StoredChatMessage } from '#shared/schemas/channel-live'
import { globalConfigFrom } from './global-config'
import { wordFilterReads } from './word-filter'

/** The channel party's reads and writes (issue 13 "Live"): channel state, chat history, ended sessions. Realm-scoped. */

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
  last_seq: number | null
}

/** Everything the party needs about a channel and its realm, in one batch; null for a channel the realm lacks. */
export async function liveChannelState(db: D1Database, realm: string, channelId: string): Promise<LiveChannelState | null> {
  const [channel, members, ...filter] = await db.batch([
    db
      .prepare(
        `SELECT c.id, c.realm, c.name, c.owner, c.category_id, c.modes, c.has_password, c.password_hash,
                r.msg_per_second, r.msg_min_interval_seconds, r.msg_per_day, r.msg_drop_rate, r.max_users_per_room,
                r.room_attachment_disabled,
                (SELECT MAX(seq) FROM channel_message m WHERE m.channel_id = c.id) AS last_seq
         FROM channel c JOIN realm r ON r.code = c.realm WHERE c.realm = ? AND c.id = ?`,
      )
      .bind(realm, channelId),
    db.prepare('SELECT nick, permission FROM channel_member WHERE realm = ? AND channel_id = ?').bind(realm, channelId),
    ...wordFilterReads(db, realm),
  ])
  const row = channel.results[0] as ChannelRow | undefined
  if (!row) return null
  const wf = filter[0].results[0] as {
    sentences: string
    exempt: string
    links: number | null
    value: string | null
    updated_at: string | null
    updated_by: string | null
  }
  const global = wf.value === null ? null : { value: wf.value, updated_at: wf.updated_at ?? '', updated_by: wf.updated_by ?? '' }
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
    },
    word_filter: {
      sentences: [...(JSON.parse(wf.sentences) as string[]), ...globalConfigFrom(global).default_word_filter],
      links: wf.links === 1,
      exempt: JSON.parse(wf.exempt) as string[],
    },
    last_seq: row.last_seq ?? 0,
  }
}

/** Inserts a batch of chat messages; a (channel, seq) already stored is left as it is (idempotent resend). */
export function insertChatStatements(db: D1Database, realm: string, channelId: string, messages: StoredChatMessage[]): D1PreparedStatement[] {
  return messages.map((m) =>
    db
      .prepare(
        `INSERT OR IGNORE INTO channel_message (realm, channel_id, seq, client_id, nick, name, role, text, attachment, session_id, created_at)
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
export async function listChatMessages(db: D1Database, realm: string, channelId: string, after: number | null, limit: number): Promise<StoredChatMessage[]> {
  const stmt =
    after === null
      ? db
          .prepare(
            `SELECT * FROM (SELECT seq, client_id, nick, name, role, text, attachment, session_id, created_at FROM channel_message
             WHERE realm = ? AND channel_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
          )
          .bind(realm, channelId, limit)
      : db
          .prepare(
            `SELECT seq, client_id, nick, name, role, text, attachment, session_id, created_at FROM channel_message
             WHERE realm = ? AND channel_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
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

/** Stores an ended live session with its metrics; the same id stored again is ignored (idempotent hand-over). */
export function insertLiveSessionStatement(
  db: D1Database,
  realm: string,
  channel: { id: string; name: string; owner: string; category_id: string | null },
  s: LiveSessionEnd,
): D1PreparedStatement {
  const started = new Date(s.started_at).toISOString()
  return db
    .prepare(
      `INSERT OR IGNORE INTO csm_session (id, realm, title, owner, channel_id, channel_topic, category_ids, reference_date, recorded_in, status,
         video_status, started_at, ended_at, ended_by, live_seconds, live_durations, peak_participants, chat_count, attachment_count, hand_raise_count, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'live', 'finished', 'no_video', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .bind(
      s.id,
      realm,
      channel.name,
      channel.owner,
      channel.id,
      s.topic,
      JSON.stringify(channel.category_id ? [channel.category_id] : []),
      started.slice(0, 10),
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
    )
}

export type LiveSessionRow = {
  id: string
  channel_id: string
  channel_topic: string
  title: string
  owner: string
  status: string
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
      `SELECT id, channel_id, channel_topic, title, owner, status, started_at, ended_at, ended_by, live_seconds, live_durations, peak_participants,
              chat_count, attachment_count, hand_raise_count
       FROM csm_session WHERE realm = ? AND channel_id = ? ORDER BY started_at DESC LIMIT 50`,
    )
    .bind(realm, channelId)
    .all<Omit<LiveSessionRow, 'live_durations'> & { live_durations: string }>()
  return results.map((r) => ({ ...r, live_durations: JSON.parse(r.live_durations) as Record<string, number> }))
}
