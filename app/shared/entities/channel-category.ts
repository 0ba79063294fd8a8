import * as v from 'valibot'
import type { Stamped } from '../schemas/entity'
import { Name } from '../schemas/tms/common'
import { STAMPS, definePlainEntity } from './define'

/** The ten icons of a channel category (seed 002 §3), each an icon of the console's sprite with the same name. */
export const CHANNEL_CATEGORY_ICONS = ['broadcast', 'chat', 'education', 'health', 'person', 'running', 'service', 'shopping', 'theatre', 'tv'] as const

/** Channel category (seed 002 §3): name, priority (lower first), featured, active, primary, icon. */
export const ChannelCategoryInput = v.object({
  name: Name(2, 80),
  priority: v.optional(
    v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(0, 'validation.min_value'), v.maxValue(9999, 'validation.max_value')),
    0,
  ),
  featured: v.optional(v.boolean('validation.boolean'), false),
  active: v.optional(v.boolean('validation.boolean'), true),
  is_primary: v.optional(v.boolean('validation.boolean'), false),
  icon: v.optional(v.picklist(CHANNEL_CATEGORY_ICONS, 'validation.picklist'), 'chat'),
})
export type ChannelCategoryInput = v.InferOutput<typeof ChannelCategoryInput>
export type ChannelCategory = ChannelCategoryInput & Stamped

const ICONS = CHANNEL_CATEGORY_ICONS.map((i) => ({ value: i, label: `resources.channel_category.icons.${i}` }))

export const channelCategoryEntity = definePlainEntity<ChannelCategory>({
  name: 'channel_category',
  table: 'channel_category',
  key: 'id',
  realmColumn: 'realm',
  stamped: true,
  input: ChannelCategoryInput,
  permission: 'sns_channel_category',
  api: 'channel/category',
  route: { id: 'channel.category', path: '/channel/category', param: 'categoryId', unsaved: true },
  labelField: 'name',
  saved: 'tms.saved',
  inUse: 'channel_category',
  fields: {
    icon: { type: 'text', list: true, filter: 'eq', searchBar: true, column: { width: 150, format: 'icon' }, form: { kind: 'icon', options: ICONS } },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like', searchBar: true, column: {}, form: { kind: 'text', required: true } },
    priority: { type: 'int', sort: true, list: true, column: { align: 'right', width: 110 }, form: { kind: 'number', min: 0, max: 9999 } },
    featured: { type: 'bool', sort: true, list: true, filter: 'eq', column: { align: 'center', width: 110 }, form: { kind: 'checkbox' } },
    active: { type: 'bool', sort: true, list: true, filter: 'eq', column: { align: 'center', width: 100 }, form: { kind: 'checkbox' } },
    is_primary: { type: 'bool', sort: true, list: true, filter: 'eq', column: { align: 'center', width: 110 }, form: { kind: 'checkbox' } },
    ...STAMPS,
  },
  defaultOrder: 'priority',
})
export default channelCategoryEntity
