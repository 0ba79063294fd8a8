import { Hono } from 'hono'
import * as v from 'valibot'
import { ChatBatch, LivePresence, LiveSessionEnd, LiveTxUsage } from '#shared/schemas/channel-live'
import { signTicket, verifyTicket } from '../../../party/ticket'
import { runBatch } from '../../db/batch'
import { insertChatStatements, listChatMessages } from '../../db/channel-live'
import { liveSessionHandOverStatements } from '../../db/csm-recording'
import { recordTxUsage } from '../../db/live-tx'
import { findRoom } from '../../db/rooms'
import { insertRoomSessionStatements, listRoomSessions, liveRoomState } from '../../db/room-live'
import { apiError } from '../../lib/errors'
import { liveIceServers } from '../../lib/live-ice'
import { guarded, guardedJson } from '../../lib/guard'
import { admitRoomJoin, leaveLive, renewLive } from '../../lib/live-capacity'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/**
 * /room/live: the room party's side of the realm API (issue 13 "rooms go live"), the channel live API's twin for
 * console rooms and breakouts (party/room.ts on the channel party's machinery).
 * - `POST /{id}/ticket`: a 60 s ticket for a signed-in user. Members of the room (of a breakout: of it or of its
 *   parent) join as `participant`, staff holding `room_room_edit` as `admin`, holders of `room_room_get` as
 *   `participant` (they watch from the console); anyone else 403 `members_only`. Then `admitRoomJoin`: the room is open
 *   (409 `closed`), inside its window (409 `not_active`), and the realm's users per room and per environment allow
 *   it (422 `limit`; admins pass and count) — nothing is minted otherwise.
 * - Party calls with a service ticket (`x-party-ticket`: party `room-api`, room = the room, PARTY_SECRET, 60 s):
 *   state, chat batches and history (`room_message`), presence (leases renewed and freed), the ended session (stored
 *   as a `csm_session` when the room records: `recorded_in` 'room').
 * - `GET /{id}/session`: the room's recorded sessions (console, `room_room_get` or `room_room_edit`).
 */
export const ROOM_PARTY_API = 'room-api'
const ROOM_PARTY = 'room'
const READ = { any: ['room_room_get', 'room_room_edit'] }

async function partyCaller(c: Ctx): Promise<{ realm: string; roomId: string }> {
  const roomId = pathParam(c, 'id')
  const ticket = await verifyTicket(c.env.PARTY_SECRET ?? '', c.req.header('x-party-ticket') ?? null, ROOM_PARTY_API, roomId)
  if (!ticket) throw apiError(401, 'unauthorized', 'A valid party ticket is required.', 'x-party-ticket')
  return { realm: ticket.realm, roomId }
}

async function requireLiveRoom(db: D1Database, realm: string, id: string) {
  const state = await liveRoomState(db, realm, id)
  if (!state) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
  return state
}

async function requireRoom(db: D1Database, realm: string, id: string) {
  const room = await findRoom(db, realm, id)
  if (!room) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
  return room
}

const HistoryQuery = v.object({
  after: v.optional(v.pipe(v.string(), v.regex(/^\d{1,15}$/, 'validation.integer'), v.transform(Number))),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,4}$/, 'validation.integer'), v.transform(Number), v.minValue(1), v.maxValue(1000)), '200'),
})

export const roomLive = new Hono<AppEnv>()
  /** POST /room/live/{id}/ticket: a 60 s ticket to join the room's party, with the caller's role in it. */
  .post(
    '/:id/ticket',
    guarded({}, async (c, auth) => {
      const db = c.env.DB
      const state = await requireLiveRoom(db, auth.realm, pathParam(c, 'id'))
      const id = state.channel.id
      const admin = auth.permissions.has('room_room_edit')
      const member = state.members[auth.nick] !== undefined
      if (!admin && !member && !auth.permissions.has('room_room_get')) throw apiError(403, 'members_only', 'live.cause.members_only', 'id', id)
      const role = admin ? 'admin' : 'participant'
      await admitRoomJoin(db, auth.realm, id, auth.nick, new Date(), admin)
      const secret = c.env.PARTY_SECRET
      if (!secret) throw apiError(503, 'unavailable', 'live.unavailable', '', null)
      const ticket = await signTicket(secret, { party: ROOM_PARTY, room: id, realm: auth.realm, nick: auth.nick, name: auth.name, role })
      return c.json({ ticket, host: c.env.PARTYKIT_HOST, party: ROOM_PARTY, room: id, role, ice_servers: await liveIceServers(c.env.DB, auth.realm) })
    }),
  )
  /** GET /room/live/{id}/session: the room's recorded live sessions with their metrics, newest first. */
  .get(
    '/:id/session',
    guarded(READ, async (c, auth) => {
      const room = await requireRoom(c.env.DB, auth.realm, pathParam(c, 'id'))
      const items = await listRoomSessions(c.env.DB, auth.realm, room.id)
      return c.json({ items, total: items.length })
    }),
  )
  /** GET /room/live/{id}/state (party): the room in the channel party's shape, its members, the realm's limits. */
  .get(
    '/:id/state',
    guarded('public', async (c) => {
      const { realm, roomId } = await partyCaller(c)
      return c.json(await requireLiveRoom(c.env.DB, realm, roomId))
    }),
  )
  /** POST /room/live/{id}/messages (party): a batch of chat messages; (room, seq) already stored counts once. */
  .post(
    '/:id/messages',
    guardedJson('public', ChatBatch, async (c, _auth, body) => {
      const { realm, roomId } = await partyCaller(c)
      await requireRoom(c.env.DB, realm, roomId)
      const results = await runBatch(c.env.DB, insertChatStatements(c.env.DB, realm, roomId, body.messages, 'room'))
      const stored = results.reduce((n, r) => n + (r.meta.changes ?? 0), 0)
      return c.json({ stored, received: body.messages.length })
    }),
  )
  /** GET /room/live/{id}/messages?after=&limit= (party): the history after a sequence, or the last `limit`. */
  .get(
    '/:id/messages',
    guarded('public', async (c) => {
      const { realm, roomId } = await partyCaller(c)
      const q = parse(HistoryQuery, c.req.query())
      const items = await listChatMessages(c.env.DB, realm, roomId, q.after ?? null, q.limit, 'room')
      return c.json({ items })
    }),
  )
  /** POST /room/live/{id}/presence (party): `present` renews the leases of who is in the room, `left` frees places. */
  .post(
    '/:id/presence',
    guardedJson('public', LivePresence, async (c, _auth, body) => {
      const { realm, roomId } = await partyCaller(c)
      const db = c.env.DB
      await requireRoom(db, realm, roomId)
      const room = { party: ROOM_PARTY, room: roomId }
      if (body.left?.length) await leaveLive(db, realm, { ...room, nick: body.left })
      if (body.present) await renewLive(db, realm, { ...room, present: body.present })
      return c.json({ present: body.present?.length ?? 0, left: body.left?.length ?? 0 })
    }),
  )
  /** POST /room/live/{id}/tx (party): the room's transmission counts for the period, as the channel API's `tx`. */
  .post(
    '/:id/tx',
    guardedJson('public', LiveTxUsage, async (c, _auth, body) => {
      const { realm, roomId } = await partyCaller(c)
      await requireRoom(c.env.DB, realm, roomId)
      const at = { party: ROOM_PARTY, room: roomId, period: body.period_start, now: new Date().toISOString() }
      return c.json(await recordTxUsage(c.env.DB, realm, at, body.usage))
    }),
  )
  /**
   * POST /room/live/{id}/session (party): an ended live session. A room with `recording` on stores it in
   * `csm_session` (recorded_in 'room', the room's name as title; the same id counts once); otherwise nothing is kept.
   */
  .post(
    '/:id/session',
    guardedJson('public', LiveSessionEnd, async (c, _auth, body) => {
      const { realm, roomId } = await partyCaller(c)
      const state = await requireLiveRoom(c.env.DB, realm, roomId)
      // The room's recordings made during the session take its metrics first (issue 20 recording).
      const handOver = liveSessionHandOverStatements(c.env.DB, realm, 'room', roomId, body)
      if (!state.room?.recording) {
        const [merged] = await runBatch(c.env.DB, handOver)
        const recordings = merged.meta.changes ?? 0
        return c.json({ id: body.id, stored: recordings > 0, recorded: false }, recordings ? 201 : 200)
      }
      const results = await runBatch(c.env.DB, [...handOver, ...insertRoomSessionStatements(c.env.DB, realm, state.channel, body)])
      const recordings = results[0].meta.changes ?? 0
      return c.json({ id: body.id, stored: recordings + (results[2].meta.changes ?? 0) > 0, recorded: true }, 201)
    }),
  )
