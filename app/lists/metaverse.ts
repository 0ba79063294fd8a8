import type { ListSpec } from '~/lib/lists'
import type { MetaverseRoom } from '#shared/schemas/metaverse'

/** The realm's metaverse rooms (`metaverse`). */
export const metaverseList: ListSpec<MetaverseRoom> = {
  name: 'metaverse_room',
  apiPath: 'mas/realm/{realm}/metaverse_room',
  route: 'metaverse.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.metaverse_room.fields.name', sorting: true },
    { id: 'description', label: 'resources.metaverse_room.fields.description', ellipsis: true, tooltip: true },
    { id: 'host', label: 'resources.metaverse_room.fields.host', sorting: true },
    { id: 'capacity', label: 'resources.metaverse_room.fields.capacity', sorting: true, align: 'right', width: 110 },
    { id: 'enabled', label: 'resources.metaverse_room.fields.enabled', sorting: true, width: 110, format: (v, _r, t) => t(v ? 'form.yes' : 'form.no') },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.metaverse_room.fields.name' },
    {
      field: 'enabled',
      type: 'select',
      label: 'resources.metaverse_room.fields.enabled',
      options: [
        { value: 'true', label: 'form.yes' },
        { value: 'false', label: 'form.no' },
      ],
    },
  ],
}

export default metaverseList
