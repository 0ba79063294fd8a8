import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import { ROOM_TYPES, type Room } from '#shared/schemas/room'

/** Rooms (`room`). */
export const roomList: ListSpec<Room> = {
  name: 'room',
  apiPath: 'room/room',
  route: 'room.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.room.fields.name', sorting: true },
    { id: 'topic', label: 'resources.room.fields.topic', ellipsis: true, tooltip: true },
    { id: 'type', label: 'resources.room.fields.type', sorting: true, width: 120, format: (v, _r, t) => t(`room.type.${String(v)}`) },
    { id: 'category_name', label: 'resources.room.fields.category_id', width: 180, ellipsis: true },
    { id: 'member_count', label: 'resources.room.fields.member_count', sorting: true, align: 'right', width: 110 },
    { id: 'enable_at', label: 'resources.room.fields.enable_at', sorting: true, width: 150, format: when, time: true },
    { id: 'disable_at', label: 'resources.room.fields.disable_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.room.fields.name' },
    { field: 'type', type: 'select', label: 'resources.room.fields.type', options: ROOM_TYPES.map((r) => ({ label: `room.type.${r}`, value: r })) },
    // The realm's categories (each named by its path), given by the list's loader (withFilterOptions).
    { field: 'category_id', type: 'select', label: 'resources.room.fields.category_id', options: [] },
  ],
}
export default roomList
