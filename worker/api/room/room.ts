import { Hono } from 'hono'
import { Id } from '#shared/schemas/tms/common'
import { RoomInput, RoomMemberInput, roomEntity, type Room, type RoomMember } from '#shared/schemas/room'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../lib/audit'
import { crud } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { checkExtraFields } from '../../lib/extra-fields'
import { guarded } from '../../lib/guard'
import { newId, nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam, readJson } from '../context'

/**
 * /room/room and /room/group: plain rooms with members, and groups of rooms, enough to publish tasks (the rooms
 * issue adds the rest of seed 002's room). Paths sit under `/room/` beside `/room/category` and `/room/card`.
 */
export const stamp = (auth: Auth) => ({ updated_at: nowIso(), updated_by: auth.nick })
export const born = (auth: Auth) => ({ id: newId(), realm: auth.realm, created_at: nowIso(), created_by: auth.nick, ...stamp(auth) })

export async function uniqueName(c: Ctx, auth: Auth, table: 'room' | 'room_group', name: string, self?: string) {
  const twin = await c.env.DB.prepare(`SELECT id FROM ${table} WHERE realm = ? AND lower(name) = lower(?) AND id IS NOT ?`)
    .bind(auth.realm, name, self ?? null)
    .first()
  if (twin) throw apiError(409, 'conflict', 'validation.tms.name_taken', 'name', name)
}

export async function inUse(c: Ctx, auth: Auth, sql: string, id: string, message: string) {
  const row = await c.env.DB.prepare(sql).bind(auth.realm, id).first<{ n: number }>()
  if (row && row.n > 0) throw apiError(409, 'in_use', message, 'id', row.n)
}

/** The realm's required active extra fields of rooms must have values; only declared keys are kept (seed 002 §3). */
async function requireExtraFields(c: Ctx, auth: Auth, extra: Record<string, string>) {
  const errors = await checkExtraFields(c.env.DB, auth.realm, 'room', extra)
  if (errors.length) throw new ApiError(422, errors)
}

/** The realm's `max_rooms` (-1: no limit) caps how many rooms it has (seed 002 realm limits). */
async function roomLimit(c: Ctx, auth: Auth) {
  const row = await c.env.DB.prepare('SELECT r.max_rooms AS max, (SELECT COUNT(*) FROM room WHERE realm = r.code) AS n FROM realm r WHERE r.code = ?')
    .bind(auth.realm)
    .first<{ max: number; n: number }>()
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
    await inUse(c, auth, 'SELECT COUNT(*) AS n FROM tms_task_target WHERE realm = ? AND room_id = ?', existing.id, 'room.in_use.task')
    await inUse(c, auth, 'SELECT COUNT(*) AS n FROM room_group g, json_each(g.rooms) j WHERE g.realm = ? AND j.value = ?', existing.id, 'room.in_use.group')
  },
})

export const room = new Hono<AppEnv>()

async function requireRoom(c: Ctx, auth: Auth): Promise<{ id: string; name: string }> {
  const id = parse(Id, pathParam(c, 'id'))
  const found = await c.env.DB.prepare('SELECT id, name FROM room WHERE realm = ? AND id = ?').bind(auth.realm, id).first<{ id: string; name: string }>()
  if (!found) throw apiError(404, 'not_found', `Room ${id} was not found.`, 'id', id)
  return found
}

/** GET /room/room/{id}/member: the room's members with their names. */
room.get(
  '/:id/member',
  guarded({ any: ['room_room_get', 'room_room_edit'] }, async (c, auth) => {
    const r = await requireRoom(c, auth)
    const { results } = await c.env.DB.prepare(
      'SELECT m.room_id, m.nick, u.name, m.added_at, m.added_by FROM room_member m JOIN user u ON u.realm = m.realm AND u.nick = m.nick WHERE m.realm = ? AND m.room_id = ? ORDER BY u.name, m.nick',
    )
      .bind(auth.realm, r.id)
      .all<RoomMember>()
    return c.json({ items: results, total: results.length })
  }),
)

/** POST /room/room/{id}/member: adds a user of the realm to the room. */
room.post(
  '/:id/member',
  guarded({ all: ['room_room_edit'] }, async (c, auth) => {
    const db = c.env.DB
    const r = await requireRoom(c, auth)
    const { nick } = await readJson(c, RoomMemberInput)
    // The realm's nick suffix is appended when missing, as at sign-in.
    const user = await db
      .prepare('SELECT u.nick FROM user u JOIN realm r ON r.code = u.realm WHERE u.realm = ?1 AND (u.nick = ?2 OR u.nick = ?2 || r.nick_suffix) LIMIT 1')
      .bind(auth.realm, nick)
      .first<{ nick: string }>()
    if (!user) throw apiError(422, 'unknown_user', 'validation.room.unknown_user', 'nick', nick)
    const found = user.nick
    if (await db.prepare('SELECT 1 FROM room_member WHERE room_id = ? AND nick = ?').bind(r.id, found).first())
      throw apiError(409, 'conflict', 'validation.room.already_member', 'nick', found)
    // The realm's `max_users_per_room` (-1: no limit) caps a room's members (seed 002 realm limits).
    const limit = await db
      .prepare('SELECT r.max_users_per_room AS max, (SELECT COUNT(*) FROM room_member WHERE realm = r.code AND room_id = ?) AS n FROM realm r WHERE r.code = ?')
      .bind(r.id, auth.realm)
      .first<{ max: number; n: number }>()
    if (limit && limit.max >= 0 && limit.n >= limit.max) throw apiError(422, 'limit', 'validation.room.max_members', 'nick', limit.max)
    await db.batch([
      db
        .prepare('INSERT INTO room_member (realm, room_id, nick, added_at, added_by) VALUES (?, ?, ?, ?, ?)')
        .bind(auth.realm, r.id, found, nowIso(), auth.nick),
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
room.delete(
  '/:id/member/:nick',
  guarded({ all: ['room_room_edit'] }, async (c, auth) => {
    const db = c.env.DB
    const r = await requireRoom(c, auth)
    const nick = pathParam(c, 'nick')
    if (!(await db.prepare('SELECT 1 FROM room_member WHERE room_id = ? AND nick = ?').bind(r.id, nick).first()))
      throw apiError(404, 'not_found', `${nick} is not a member.`, 'nick', nick)
    await db.batch([
      db.prepare('DELETE FROM room_member WHERE room_id = ? AND nick = ?').bind(r.id, nick),
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

room.route('/', roomCrud)
