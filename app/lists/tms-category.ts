import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { Category } from '#shared/schemas/tms/category'

const yes = (v: unknown) => (v ? '✓' : '')

/** Task categories (`tms/category`). */
export const categoryList: ListSpec<Category> = {
  name: 'tms_category',
  apiPath: 'tms/category',
  route: 'tms.category.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.tms_category.fields.name', sorting: true },
    { id: 'parent_id', label: 'resources.tms_category.fields.parent_id', sorting: true, width: 160 },
    { id: 'required', label: 'resources.tms_category.fields.required', sorting: true, align: 'center', width: 110, format: yes },
    { id: 'multi_selection', label: 'resources.tms_category.fields.multi_selection', align: 'center', width: 110, format: yes },
    { id: 'selectable', label: 'resources.tms_category.fields.selectable', align: 'center', width: 110, format: yes },
    { id: 'enabled', label: 'resources.tms_category.fields.enabled', align: 'center', width: 110, format: yes },
    { id: 'updated_at', label: 'resources.tms.fields.updated_at', sorting: true, width: 150, format: when, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.tms_category.fields.name' },
    {
      field: 'required',
      type: 'select',
      label: 'resources.tms_category.fields.required',
      options: [
        { label: 'tms.yes', value: 'true' },
        { label: 'tms.no', value: 'false' },
      ],
    },
    {
      field: 'enabled',
      type: 'select',
      label: 'resources.tms_category.fields.enabled',
      options: [
        { label: 'tms.yes', value: 'true' },
        { label: 'tms.no', value: 'false' },
      ],
    },
  ],
}
export default categoryList
