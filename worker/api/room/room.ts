import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import {
  breakoutCount,
  closeRoomStatement,
  deleteRoomMemberStatement,
  existingCards,
  findRoom,
  groupsHoldingRoom,
  insertRoomMemberStatement,
  isRoomMember,
  listBreakouts,
  listRoomMembers,
  reopenRoomStatement,
  roomCards,
  roomCategoryExists,
  roomCountAndLimit,
  roomMemberCountAndLimit,
  ROOM_CATEGORY_NAME_COLUMN,
  roomNameTaken,
  taskTargetsOf,
} from '../../db/rooms'
import { trackExists } from '../../db/track-progress'
import { findNickWithSuffix } from '../../db/users'
import { Id } from '#shared/schemas/tms/common'
import { BreakoutInput, RoomInput, RoomMemberInput, roomEntity, type Room } from '#shared/schemas/room'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { roomAndBreakoutIds } from '../../db/room-live'
import { born, crud, decodeRow, getRawRow, insertStatement, stamp } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { checkExtraFields } from '../../lib/extra-fields'
import { guarded, guardedJson } from '../../lib/guard'
import { endLiveRooms } from '../../lib/live-control'
import { nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/**
 * /room/room and /room/group: rooms with members, breakouts and cards, and groups of rooms (seed 002 §3 "Room").
 * Paths sit under `/room/` beside `/room/category` and `/room/card`.
 */

export async function uniqueName(c: Ctx, auth: Auth, table: 'room' | 'room_group', name: string, self?: string) {
  if (await roomNameTaken(c.env.DB, auth.realm, table, name, self)) throw apiError(409, 'conflict', 'validation.tms.name_taken', 'name', name)
}

/** Refuses a delete while `n` rows still use the row (409 in_use). */
export function inUse(n: number, message: string) {
  if (n > 0) throw apiError(409, 'in_use', message, 'id', n)
}

/** The realm's required active extra fields of rooms must have values; only declared keys are kept (seed 002 §3). */
async function requireExtraFields(c: Ctx, auth: Auth, extra: Record<string, string>) {
  const errors = await checkExtraFields(c.env.DB, auth.realm, 'room', extra)
  if (errors.length) throw new ApiError(422, errors)
}

/** The realm's `max_rooms` (-1: no limit) caps how many rooms it has, breakouts included (seed 002 realm limits). */
async function roomLimit(c: Ctx, auth: Auth) {
  const row = await roomCountAndLimit(c.env.DB, auth.realm)
  if (row && row.max >= 0 && row.n >= row.max) throw apiError(422, 'limit', 'validation.room.max_rooms', 'name', row.max)
}

/** The category must be one of the realm's room categories; each card one of its cards (422 on the field). */
async function checkLinks(c: Ctx, auth: Auth, body: RoomInput) {
  if (body.category_id !== null && !(await roomCategoryExists(c.env.DB, auth.realm, body.category_id)))
    throw apiError(422, 'not_found', 'validation.room.unknown_category', 'category_id', body.category_id)
  const found = await existingCards(c.env.DB, auth.realm, body.cards)
  const i = body.cards.findIndex((id) => !found.has(id))
  if (i >= 0) throw apiError(422, 'not_found', 'validation.room.unknown_card', `cards.${i}`, body.cards[i])
  if (body.track_id && !(await trackExists(c.env.DB, auth.realm, body.track_id)))
    throw apiError(422, 'not_found', 'validation.room.unknown_track', 'track_id', body.track_id)
}

/** The stored values of a room body: a track left out keeps the room's (update) or is none (create). */
function withTrack<T extends RoomInput>(body: T, existing?: Room): Omit<T, 'track_id'> & { track_id: string | null } {
  return { ...body, track_id: body.track_id === undefined ? (existing?.track_id ?? null) : body.track_id }
}

const roomCrud = crud(roomEntity, {
  // The list names each room's category (its column and the CSV export).
  computed: { category_name: ROOM_CATEGORY_NAME_COLUMN },
  permissions: {
    list: 'room_room_list',
    get: ['room_room_get', 'room_room_edit'],
    create: 'room_room_create',
    edit: 'room_room_edit',
    delete: 'room_room_delete',
  },
  create: RoomInput,
  update: RoomInput,
  beforeCreate: async (c, auth, body) => {
    await uniqueName(c, auth, 'room', body.name)
    await checkLinks(c, auth, body)
    await roomLimit(c, auth)
    await requireExtraFields(c, auth, body.extra)
    return { ...withTrack(body), ...born(auth), parent_id: null, closed_at: null, member_count: 0 }
  },
  beforeUpdate: async (c, auth, body, existing: Room) => {
    await uniqueName(c, auth, 'room', body.name, existing.id)
    await checkLinks(c, auth, body)
    await requireExtraFields(c, auth, body.extra)
    return { ...withTrack(body, existing), ...stamp(auth) }
  },
  beforeDelete: async (c, auth, existing) => {
    inUse(await taskTargetsOf(c.env.DB, auth.realm, 'room_id', existing.id), 'room.in_use.task')
    inUse(await groupsHoldingRoom(c.env.DB, auth.realm, existing.id), 'room.in_use.group')
    inUse(await breakoutCount(c.env.DB, auth.realm, existing.id), 'room.in_use.breakout')
  },
})

/** True when the realm's room `id` is closed. */
async function findRoomClosed(c: Ctx, auth: Auth, id: string): Promise<boolean> {
  const raw = await getRawRow(c.env.DB, roomEntity, { where: 'realm = ?', params: [auth.realm] }, id)
  return raw !== null && raw.closed_at !== null
}

async function requireRoom(c: Ctx, auth: Auth): Promise<{ id: string; name: string }> {
  const id = parse(Id, pathParam(c, 'id'))
  const found = await findRoom(c.env.DB, auth.realm, id)
  if (!found) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
  return found
}

/** The whole stored room of the path's id (404 when the realm has none). */
async function loadRoom(c: Ctx, auth: Auth): Promise<Room> {
  const id = parse(Id, pathParam(c, 'id'))
  const raw = await getRawRow(c.env.DB, roomEntity, { where: 'realm = ?', params: [auth.realm] }, id)
  if (!raw) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
  return decodeRow(roomEntity, raw) as Room
}

const roomAudit = (c: Ctx, auth: Auth, action: string, id: string, before?: Record<string, unknown>, after?: Record<string, unknown>) =>
  auditStatement(c.env.DB, { realm: auth.realm, actor: auth.nick, action, entity: 'room', entityId: id, before, after, requestId: c.get('requestId') })

export const room = new Hono<AppEnv>()
  /** GET /room/room/{id}/breakout: the room's breakout rooms (name, closed time, members). */
  .get(
    '/:id/breakout',
    guarded({ any: ['room_room_get', 'room_room_edit'] }, async (c, auth) => {
      const r = await requireRoom(c, auth)
      const items = await listBreakouts(c.env.DB, auth.realm, r.id)
      return c.json({ items, total: items.length })
    }),
  )
  /**
   * POST /room/room/{id}/breakout: a breakout room under an open top-level room (one level: a breakout has none of
   * its own, 422 `nesting`), named uniquely in the realm and counted by `max_rooms`. It copies the parent's type,
   * recording, category, window and extra values; it starts without members and cards.
   */
  .post(
    '/:id/breakout',
    guardedJson({ all: ['room_room_create', 'room_room_edit'] }, BreakoutInput, async (c, auth, { name }) => {
      const parent = await loadRoom(c, auth)
      if (parent.parent_id !== null) throw apiError(422, 'nesting', 'validation.room.breakout_nesting', 'id', parent.id)
      if (parent.closed_at !== null) throw apiError(409, 'closed', 'validation.room.closed', 'id', parent.id)
      await uniqueName(c, auth, 'room', name)
      await roomLimit(c, auth)
      const values = {
        ...born(auth),
        name,
        topic: '',
        type: parent.type,
        recording: parent.recording,
        category_id: parent.category_id,
        enable_at: parent.enable_at,
        disable_at: parent.disable_at,
        extra: parent.extra,
        cards: [],
        // A breakout is a short-lived part of its parent's class: it follows no track of its own.
        track_id: null,
        parent_id: parent.id,
        closed_at: null,
        member_count: 0,
      }
      await runBatch(c.env.DB, [insertStatement(c.env.DB, roomEntity, values), roomAudit(c, auth, 'create_breakout', values.id, undefined, values)])
      return c.json(values, 201)
    }),
  )
  /**
   * POST /room/room/{id}/close: closes the room and, for a parent, its breakouts (one batch); a closed room stays as it
   * was. The live sessions of the room and of the breakouts it closes end (everyone told and closed: `live_ended`
   * counts the parties that took it).
   */
  .post(
    '/:id/close',
    guarded({ all: ['room_room_edit'] }, async (c, auth) => {
      const r = await loadRoom(c, auth)
      if (r.closed_at !== null) return c.json({ id: r.id, closed_at: r.closed_at, breakouts_closed: 0 })
      const at = nowIso()
      const live = await roomAndBreakoutIds(c.env.DB, auth.realm, r.id)
      const [res] = await runBatch(c.env.DB, [
        closeRoomStatement(c.env.DB, auth.realm, r.id, at, auth.nick),
        roomAudit(c, auth, 'close', r.id, { closed_at: null }, { closed_at: at }),
      ])
      const ended = await endLiveRooms(c.env, auth.realm, 'room', live, auth.nick)
      return c.json({ id: r.id, closed_at: at, breakouts_closed: Math.max(0, (res?.meta.changes ?? 1) - 1), live_ended: ended })
    }),
  )
  /** POST /room/room/{id}/open: reopens a closed room; a breakout of a closed parent stays closed (409 `closed`). */
  .post(
    '/:id/open',
    guarded({ all: ['room_room_edit'] }, async (c, auth) => {
      const r = await loadRoom(c, auth)
      if (r.closed_at === null) return c.json({ id: r.id, closed_at: null })
      if (r.parent_id !== null) {
        const parent = await findRoomClosed(c, auth, r.parent_id)
        if (parent) throw apiError(409, 'closed', 'validation.room.parent_closed', 'id', r.parent_id)
      }
      await runBatch(c.env.DB, [
        reopenRoomStatement(c.env.DB, auth.realm, r.id, nowIso(), auth.nick),
        roomAudit(c, auth, 'open', r.id, { closed_at: r.closed_at }, { closed_at: null }),
      ])
      return c.json({ id: r.id, closed_at: null })
    }),
  )
  /** GET /room/room/{id}/card: the room's cards in its order. */
  .get(
    '/:id/card',
    guarded({ any: ['room_room_get', 'room_room_edit'] }, async (c, auth) => {
      const r = await requireRoom(c, auth)
      const items = await roomCards(c.env.DB, auth.realm, r.id)
      return c.json({ items, total: items.length })
    }),
  )
  /** GET /room/room/{id}/member: the room's members with their names. */
  .get(
    '/:id/member',
    guarded({ any: ['room_room_get', 'room_room_edit'] }, async (c, auth) => {
      const r = await requireRoom(c, auth)
      const results = await listRoomMembers(c.env.DB, auth.realm, r.id)
      return c.json({ items: results, total: results.length })
    }),
  )
  /** POST /room/room/{id}/member: adds a user of the realm to the room. */
  .post(
    '/:id/member',
    guardedJson({ all: ['room_room_edit'] }, RoomMemberInput, async (c, auth, { nick }) => {
      const db = c.env.DB
      const r = await requireRoom(c, auth)
      // The realm's nick suffix is appended when missing, as at sign-in.
      const found = await findNickWithSuffix(db, auth.realm, nick)
      if (!found) throw apiError(422, 'unknown_user', 'validation.room.unknown_user', 'nick', nick)
      if (await isRoomMember(db, auth.realm, r.id, found)) throw apiError(409, 'conflict', 'validation.room.already_member', 'nick', found)
      // The realm's `max_users_per_room` (-1: no limit) caps a room's members (seed 002 realm limits).
      const limit = await roomMemberCountAndLimit(db, auth.realm, r.id)
      if (limit && limit.max >= 0 && limit.n >= limit.max) throw apiError(422, 'limit', 'validation.room.max_members', 'nick', limit.max)
      await runBatch(db, [
        insertRoomMemberStatement(db, auth.realm, r.id, found, auth.nick),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'add_member',
          entity: 'room',
          entityId: r.id,
          after: { member: found },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json({ room_id: r.id, nick: found }, 201)
    }),
  )
  /** DELETE /room/room/{id}/member/{nick}: removes a member. */
  .delete(
    '/:id/member/:nick',
    guarded({ all: ['room_room_edit'] }, async (c, auth) => {
      const db = c.env.DB
      const r = await requireRoom(c, auth)
      const nick = pathParam(c, 'nick')
      if (!(await isRoomMember(db, auth.realm, r.id, nick))) throw apiError(404, 'not_found', `${nick} is not a member.`, 'nick', nick)
      await runBatch(db, [
        deleteRoomMemberStatement(db, auth.realm, r.id, nick),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'remove_member',
          entity: 'room',
          entityId: r.id,
          before: { member: nick },
          requestId: c.get('requestId'),
        }),
      ])
      return c.body(null, 204)
    }),
  )
  .route('/', roomCrud)
