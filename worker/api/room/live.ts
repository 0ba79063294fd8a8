import { Hono } from 'hono'
import { LiveSessionEnd } from '#shared/schemas/channel-live'
import { signTicket } from '../../../party/ticket'
import { runBatch } from '../../db/batch'
import { liveSessionHandOverStatements } from '../../db/csm-recording'
import { findRoom } from '../../db/rooms'
import { insertRoomSessionStatements, listRoomSessions, liveRoomState } from '../../db/room-live'
import { apiError } from '../../lib/errors'
import { liveIceServers } from '../../lib/live-ice'
import { guarded, guardedJson } from '../../lib/guard'
import { admitRoomJoin } from '../../lib/live-capacity'
import { type AppEnv, pathParam } from '../context'
import { partyCaller, partyChatRoutes, partySecret } from '../live-party'

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
      const ticket = await signTicket(partySecret(c), { party: ROOM_PARTY, room: id, realm: auth.realm, nick: auth.nick, name: auth.name, role })
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
      const { realm, id: roomId } = await partyCaller(c, ROOM_PARTY_API)
      return c.json(await requireLiveRoom(c.env.DB, realm, roomId))
    }),
  )
  /**
   * POST /room/live/{id}/session (party): an ended live session. A room with `recording` on stores it in
   * `csm_session` (recorded_in 'room', the room's name as title; the same id counts once); otherwise nothing is kept.
   */
  .post(
    '/:id/session',
    guardedJson('public', LiveSessionEnd, async (c, _auth, body) => {
      const { realm, id: roomId } = await partyCaller(c, ROOM_PARTY_API)
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
  /** POST|GET /room/live/{id}/messages, POST …/presence and …/tx (party): as the channel API's, on `room_message`. */
  .route('/', partyChatRoutes({ party: ROOM_PARTY, api: ROOM_PARTY_API, target: 'room', requireTarget: requireRoom }))
