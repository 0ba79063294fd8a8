import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { RoomGroup } from '#shared/schemas/room'

/** Room groups (`room?tab=groups`), for publishing to several rooms at once. */
export const roomGroupList: ListSpec<RoomGroup> = {
  name: 'room_group',
  apiPath: 'room/group',
  route: 'room.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.room_group.fields.name', sorting: true },
    { id: 'rooms', label: 'resources.room_group.fields.rooms', align: 'right', width: 120, format: (v) => (Array.isArray(v) ? String(v.length) : '') },
    { id: 'created_at', label: 'resources.tms.fields.created_at', sorting: true, width: 150, format: when, time: true },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [{ field: 'name', type: 'text', label: 'resources.room_group.fields.name' }],
}
export default roomGroupList
