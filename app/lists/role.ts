import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { RoleRow } from '#shared/schemas/role'

/** The role list (`realm/role`). */
export const roleList: ListSpec<RoleRow> = {
  name: 'role',
  apiPath: 'mas/permission',
  route: 'role.list',
  rowId: (r) => r.role,
  columns: [
    { id: 'role', label: 'resources.role.fields.role', sorting: true, width: 180 },
    { id: 'description', label: 'resources.role.fields.description', sorting: true, ellipsis: true, tooltip: true },
    {
      id: 'permission_count',
      label: 'resources.role.fields.permission_count',
      align: 'right',
      width: 140,
      info: 'resources.role.fields.permission_count.info',
    },
    {
      id: 'updated_at',
      label: 'resources.role.fields.updated_at',
      sorting: true,
      width: 170,
      format: when,
      time: true,
    },
    { id: 'updated_by', label: 'resources.role.fields.updated_by', width: 160 },
  ],
  search: [
    { field: 'updated_by', type: 'text', label: 'resources.role.fields.updated_by' },
    { field: 'updated_at', type: 'date', label: 'resources.role.fields.updated_at' },
  ],
}

export default roleList
