import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { Category } from '#shared/schemas/category'

/** Room categories as a flat list: the CSV export of the tree screen (`room/category`). */
export const categoryList: ListSpec<Category> = {
  name: 'category',
  apiPath: 'room/category',
  route: 'room.category.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'id', label: 'resources.category.fields.id', width: 140 },
    { id: 'name', label: 'resources.category.fields.name', sorting: true },
    { id: 'parent', label: 'resources.category.fields.parent', sorting: true },
    { id: 'priority', label: 'resources.category.fields.priority', sorting: true, align: 'right' },
    {
      id: 'updated_at',
      label: 'resources.category.fields.updated_at',
      sorting: true,
      format: when,
      time: true,
    },
  ],
  search: [{ field: 'name', type: 'text', label: 'resources.category.fields.name' }],
}

export default categoryList
