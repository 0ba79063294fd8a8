import type { FieldSpec } from '~/lib/form-fields'
import { ROOM_TYPES } from '#shared/schemas/room'

/** Fields of the room and room-group forms, declared once for screen and action. */
export const roomFields: FieldSpec[] = [
  { name: 'name', label: 'resources.room.fields.name', kind: 'text', required: true, hint: 'room.name_hint' },
  { name: 'topic', label: 'resources.room.fields.topic', kind: 'text' },
  { name: 'type', label: 'resources.room.fields.type', kind: 'select', options: ROOM_TYPES.map((r) => ({ value: r, label: `room.type.${r}` })) },
  { name: 'recording', label: 'resources.room.fields.recording', kind: 'checkbox' },
  { name: 'enable_at', label: 'resources.room.fields.enable_at', kind: 'datetime', nullable: true, hint: 'room.window_hint' },
  { name: 'disable_at', label: 'resources.room.fields.disable_at', kind: 'datetime', nullable: true },
]

export const groupFields = (rooms: { value: string; label: string }[] = []): FieldSpec[] => [
  { name: 'name', label: 'resources.room_group.fields.name', kind: 'text', required: true },
  { name: 'rooms', label: 'resources.room_group.fields.rooms', kind: 'checkboxes', options: rooms },
]

/** `?kind=group` addresses room groups on the room routes (the manifest has no routes of their own). */
export const isGroup = (request: Request) => new URL(request.url).searchParams.get('kind') === 'group'
