import { day } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import { USER_SEARCH_MIN, type User } from '#shared/schemas/user'

const yesNo = [
  { value: 'true', label: 'form.yes' },
  { value: 'false', label: 'form.no' },
]

/** Users of the realm (`user`): search needs 3 characters (seed 002 §5). */
export const userList: ListSpec<User> = {
  name: 'user',
  apiPath: 'mas/user',
  route: 'user.list',
  rowId: (r) => r.nick,
  likeMinLength: USER_SEARCH_MIN,
  columns: [
    { id: 'nick', label: 'resources.user.fields.nick', sorting: true, width: 200 },
    { id: 'name', label: 'resources.user.fields.name', sorting: true, ellipsis: true, tooltip: true },
    { id: 'email', label: 'resources.user.fields.email', sorting: true, ellipsis: true },
    { id: 'roles', label: 'resources.user.fields.roles', format: (v) => (Array.isArray(v) ? v.join(', ') : '') },
    { id: 'origin_realm', label: 'resources.user.fields.origin_realm', sorting: true, width: 140 },
    {
      id: 'disabled',
      label: 'resources.user.fields.status',
      sorting: true,
      width: 120,
      format: (v, _r, t) => t(v ? 'resources.user.status.disabled' : 'resources.user.status.active'),
    },
    { id: 'created_at', label: 'resources.user.fields.created_at', sorting: true, width: 120, format: day, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.user.fields.name', minLength: USER_SEARCH_MIN },
    { field: 'email', type: 'text', label: 'resources.user.fields.email', minLength: USER_SEARCH_MIN },
    { field: 'role', type: 'text', label: 'resources.user.fields.role' },
    { field: 'disabled', type: 'select', label: 'resources.user.fields.disabled', options: yesNo },
    { field: 'bot', type: 'select', label: 'resources.user.fields.bot', options: yesNo },
    { field: 'origin_realm', type: 'text', label: 'resources.user.fields.origin_realm' },
    { field: 'created_at', type: 'date', label: 'resources.user.fields.created_at' },
  ],
}

export default userList
