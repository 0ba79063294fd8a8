import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Channel } from '#shared/schemas/channel'

/** Channels (`channel`). */
export const channelList: ListSpec<Channel> = {
  name: 'channel',
  apiPath: 'channel',
  route: 'channel.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.channel.fields.name', sorting: true },
    { id: 'category_name', label: 'resources.channel.fields.category_id', width: 180, ellipsis: true },
    { id: 'owner', label: 'resources.channel.fields.owner', sorting: true, width: 180 },
    { id: 'member_count', label: 'resources.channel.fields.member_count', sorting: true, align: 'right', width: 110 },
    { id: 'updated_at', label: 'resources.tms.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.channel.fields.name' },
    { field: 'owner', type: 'text', label: 'resources.channel.fields.owner' },
    // The realm's categories, given by the list's loader (withFilterOptions).
    { field: 'category_id', type: 'select', label: 'resources.channel.fields.category_id', options: [] },
  ],
}
export default channelList
