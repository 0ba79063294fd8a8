import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import {
  deleteRoomMemberStatement,
  findRoom,
  groupsHoldingRoom,
  insertRoomMemberStatement,
  isRoomMember,
  listRoomMembers,
  roomCountAndLimit,
  roomMemberCountAndLimit,
  roomNameTaken,
  taskTargetsOf,
} from '../../db/rooms'
import { findNickWithSuffix } from '../../db/users'
import { Id } from '#shared/schemas/tms/common'
import { RoomInput, RoomMemberInput, roomEntity, type Room } from '#shared/schemas/room'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { crud } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { checkExtraFields } from '../../lib/extra-fields'
import { guarded, guardedJson } from '../../lib/guard'
import { newId, nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

/**
 * /room/room and /room/group: plain rooms with members, and groups of rooms, enough to publish tasks (the rooms
 * issue adds the rest of seed 002's room). Paths sit under `/room/` beside `/room/category` and `/room/card`.
 */
export const stamp = (auth: Auth) => ({ updated_at: nowIso(), updated_by: auth.nick })
export const born = (auth: Auth) => ({ id: newId(), realm: auth.realm, created_at: nowIso(), created_by: auth.nick, ...stamp(auth) })

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

/** The realm's `max_rooms` (-1: no limit) caps how many rooms it has (seed 002 realm limits). */
async function roomLimit(c: Ctx, auth: Auth) {
  const row = await roomCountAndLimit(c.env.DB, auth.realm)
  if (row && row.max >= 0 && row.n >= row.max) throw apiError(422, 'limit', 'validation.room.max_rooms', 'name', row.max)
}

const roomCrud = crud(roomEntity, {
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
    await roomLimit(c, auth)
    await requireExtraFields(c, auth, body.extra)
    return { ...body, ...born(auth), member_count: 0 }
  },
  beforeUpdate: async (c, auth, body, existing: Room) => {
    await uniqueName(c, auth, 'room', body.name, existing.id)
    await requireExtraFields(c, auth, body.extra)
    return { ...body, ...stamp(auth) }
  },
  beforeDelete: async (c, auth, existing) => {
    inUse(await taskTargetsOf(c.env.DB, auth.realm, 'room_id', existing.id), 'room.in_use.task')
    inUse(await groupsHoldingRoom(c.env.DB, auth.realm, existing.id), 'room.in_use.group')
  },
})

async function requireRoom(c: Ctx, auth: Auth): Promise<{ id: string; name: string }> {
  const id = parse(Id, pathParam(c, 'id'))
  const found = await findRoom(c.env.DB, auth.realm, id)
  if (!found) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
  return found
}

export const room = new Hono<AppEnv>()
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
