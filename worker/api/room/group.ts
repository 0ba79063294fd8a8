import { RoomGroupInput, roomGroupEntity, type RoomGroup } from '#shared/schemas/room'
import { taskTargetsOf } from '../../db/rooms'
import type { Auth } from '../../db/sessions'
import { crud } from '../../lib/entity'
import { existingIds } from '../../db/ids'
import { refuse, ruleError } from '../../lib/tms'
import { type Ctx } from '../context'
import { born, stamp } from '../../lib/entity'
import { inUse, uniqueName } from './room'

async function checkGroup(c: Ctx, auth: Auth, body: RoomGroupInput, self?: RoomGroup) {
  await uniqueName(c, auth, 'room_group', body.name, self?.id)
  const found = await existingIds(c.env.DB, 'room', auth.realm, body.rooms)
  refuse(body.rooms.filter((id) => !found.has(id)).map((id) => ruleError('rooms', 'validation.tms.unknown_room', id)))
}

export const roomGroup = crud(roomGroupEntity, {
  permissions: {
    list: 'room_room_list',
    get: ['room_room_get', 'room_room_edit'],
    create: 'room_room_create',
    edit: 'room_room_edit',
    delete: 'room_room_delete',
  },
  create: RoomGroupInput,
  update: RoomGroupInput,
  beforeCreate: async (c, auth, body) => {
    await checkGroup(c, auth, body)
    return { ...body, ...born(auth) }
  },
  beforeUpdate: async (c, auth, body, existing) => {
    await checkGroup(c, auth, body, existing)
    return { ...body, ...stamp(auth) }
  },
  beforeDelete: async (c, auth, existing) => inUse(await taskTargetsOf(c.env.DB, auth.realm, 'group_id', existing.id), 'room.in_use.task'),
})
