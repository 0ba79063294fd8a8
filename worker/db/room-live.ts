import type { LiveChannelState, LiveSessionEnd } from '#shared/schemas/channel-live'
import { endedSessionStatement, liveWordFilter } from './channel-live'
import { UNRECORDED } from './csm-recording'
import type { LiveSessionRow } from './channel-live'
import { wordFilterReads } from './word-filter'

/**
 * The room party's reads and writes (issue 13 "rooms go live"): a console room's live state in the channel party's
 * shape, and its recorded sessions. Realm-scoped. The chat lives in `room_message` (channel-live.ts, target 'room').
 */

type RoomRow = {
  id: string
  realm: string
  name: string
  created_by: string
  category_id: string | null
  type: string
  recording: number
  parent_id: string | null
  closed_at: string | null
  parent_closed_at: string | null
  parent_name: string | null
  enable_at: string | null
  disable_at: string | null
  msg_per_second: number
  msg_drop_rate: number
  room_msg_delay: number
  room_msg_per_day: number
  max_users_per_room: number
  room_attachment_disabled: number
  max_bitrate_kbps: number
  room_tx_weekly_seconds: number
  room_tx_renewal_days: number
  room_tx_duration: number
  room_tx_interval: number
  last_seq: number | null
}

/**
 * Everything the room party needs about a room and its realm, in one batch; null for a room the realm lacks. Members
 * are the room's and, for a breakout, its parent's (breakouts start empty: the parent's members are sent into them).
 * The realm's room messaging settings are the chat limits: `room_msg_delay` the minimum seconds between a sender's
 * messages, `room_msg_per_day` their messages per day; `msg_per_second` and `msg_drop_rate` are the realm's.
 */
export async function liveRoomState(db: D1Database, realm: string, roomId: string, now = new Date()): Promise<LiveChannelState | null> {
  const [room, members, breakouts, ...filter] = await db.batch([
    db
      .prepare(
        `SELECT o.id, o.realm, o.name, o.created_by, o.category_id, o.type, o.recording, o.parent_id, o.closed_at,
                p.closed_at AS parent_closed_at, p.name AS parent_name, o.enable_at, o.disable_at,
                g.msg_per_second, g.msg_drop_rate, g.room_msg_delay, g.room_msg_per_day, g.max_users_per_room, g.room_attachment_disabled, g.max_bitrate_kbps,
                g.room_tx_weekly_seconds, g.room_tx_renewal_days, g.room_tx_duration, g.room_tx_interval,
                (SELECT MAX(seq) FROM room_message m WHERE m.room_id = o.id) AS last_seq
         FROM room o JOIN realm g ON g.code = o.realm LEFT JOIN room p ON p.realm = o.realm AND p.id = o.parent_id
         WHERE o.realm = ? AND o.id = ?`,
      )
      .bind(realm, roomId),
    db
      .prepare(
        `SELECT DISTINCT nick FROM room_member WHERE realm = ?1
           AND room_id IN (?2, (SELECT parent_id FROM room WHERE realm = ?1 AND id = ?2))`,
      )
      .bind(realm, roomId),
    // Issue 20 live breakouts: the room's open breakout rooms (index list_room_parent_id).
    db.prepare('SELECT id, name FROM room WHERE realm = ? AND parent_id = ? AND closed_at IS NULL ORDER BY name').bind(realm, roomId),
    ...wordFilterReads(db, realm),
  ])
  const row = room.results[0] as RoomRow | undefined
  if (!row) return null
  const at = now.toISOString()
  const refuse =
    row.closed_at !== null || row.parent_closed_at !== null
      ? 'closed'
      : (row.enable_at !== null && at < row.enable_at) || (row.disable_at !== null && at >= row.disable_at)
        ? 'not_active'
        : null
  return {
    channel: {
      id: row.id,
      realm: row.realm,
      name: row.name,
      owner: row.created_by,
      category_id: row.category_id,
      // A room admits its members (and staff) only; no guests, no password.
      modes: { private: true },
      has_password: false,
      password_hash: '',
    },
    members: Object.fromEntries((members.results as { nick: string }[]).map((m) => [m.nick, 'participant'])),
    limits: {
      msg_per_second: row.msg_per_second,
      msg_min_interval_seconds: row.room_msg_delay,
      msg_per_day: row.room_msg_per_day,
      msg_drop_rate: row.msg_drop_rate,
      max_users_per_room: row.max_users_per_room,
      room_attachment_disabled: row.room_attachment_disabled === 1,
      max_bitrate_kbps: row.max_bitrate_kbps,
      tx_weekly_seconds: row.room_tx_weekly_seconds,
      tx_renewal_days: row.room_tx_renewal_days,
      tx_duration_seconds: row.room_tx_duration,
      tx_interval_seconds: row.room_tx_interval,
    },
    word_filter: liveWordFilter(filter[0].results[0] as Parameters<typeof liveWordFilter>[0]),
    last_seq: row.last_seq ?? 0,
    room: {
      type: row.type,
      recording: row.recording === 1,
      parent_id: row.parent_id,
      parent_name: row.parent_name,
      refuse,
      breakouts: breakouts.results as { id: string; name: string }[],
    },
  }
}

/**
 * A recorded room's ended live session: a `csm_session` row (recorded_in 'room', the room's name as title, its
 * creator as owner, its category) and its `csm_session_room` link; both ignored when the id is stored (idempotent).
 */
export function insertRoomSessionStatements(
  db: D1Database,
  realm: string,
  room: { id: string; name: string; owner: string; category_id: string | null },
  s: LiveSessionEnd,
): D1PreparedStatement[] {
  const started = new Date(s.started_at).toISOString()
  return [
    endedSessionStatement(db, realm, { ...room, channel_id: '', topic: s.topic, recorded_in: 'room' }, s),
    db
      .prepare(`INSERT OR IGNORE INTO csm_session_room (session_id, realm, room_id, started_at) SELECT ?, ?, ?, ? WHERE ${UNRECORDED}`)
      .bind(s.id, realm, room.id, started, realm, s.id),
  ]
}

export type RoomSessionRow = Omit<LiveSessionRow, 'channel_id'> & { room_id: string; recorded_in: string }

/** The room's recorded live sessions, newest first (at most 50). */
export async function listRoomSessions(db: D1Database, realm: string, roomId: string): Promise<RoomSessionRow[]> {
  const { results } = await db
    .prepare(
      `SELECT s.id, l.room_id, s.recorded_in, s.channel_topic, s.title, s.owner, s.status, s.video_status, s.started_at, s.ended_at, s.ended_by,
              s.live_seconds, s.live_durations, s.peak_participants, s.chat_count, s.attachment_count, s.hand_raise_count,
              (SELECT r.duration_seconds FROM csm_recording r WHERE r.session_id = s.id AND r.status = 'complete') AS video_seconds
       FROM csm_session_room l JOIN csm_session s ON s.id = l.session_id AND s.realm = l.realm
       WHERE l.realm = ? AND l.room_id = ? ORDER BY l.started_at DESC LIMIT 50`,
    )
    .bind(realm, roomId)
    .all<Omit<RoomSessionRow, 'live_durations'> & { live_durations: string }>()
  return results.map((r) => ({ ...r, live_durations: JSON.parse(r.live_durations) as Record<string, number> }))
}

/** The ids of the room, when open, and its open breakouts (closing it ends their live sessions). */
export async function roomAndBreakoutIds(db: D1Database, realm: string, roomId: string): Promise<string[]> {
  const { results } = await db
    .prepare('SELECT id FROM room WHERE realm = ?1 AND (id = ?2 OR parent_id = ?2) AND closed_at IS NULL')
    .bind(realm, roomId)
    .all<{ id: string }>()
  return results.map((r) => r.id)
}
