import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import type { TaskToken } from '#shared/schemas/tms/token'

/** Task tokens (`tms/token`): codes with who created them and when. */
export const tokenList: ListSpec<TaskToken> = {
  name: 'tms_token',
  apiPath: 'tms/token',
  route: 'tms.token.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'code', label: 'resources.tms_token.fields.code', sorting: true, width: 120 },
    { id: 'task_title', label: 'resources.tms_token.fields.task_title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'room_name', label: 'resources.tms_token.fields.room_name', sorting: true, width: 160 },
    { id: 'created_by', label: 'resources.tms_token.fields.created_by', sorting: true, width: 160 },
    { id: 'created_at', label: 'resources.tms_token.fields.created_at', sorting: true, width: 150, format: when, time: true },
    {
      id: 'revoked_at',
      label: 'resources.tms_token.fields.revoked_at',
      width: 150,
      format: (v, r, t, clock) => (v ? when(v, r, t, clock) : t('tms.token.active')),
      time: true,
    },
  ],
  search: [
    { field: 'room_name', type: 'text', label: 'resources.tms_token.fields.room_name' },
    { field: 'created_by', type: 'text', label: 'resources.tms_token.fields.created_by' },
    { field: 'created_at', type: 'date', label: 'resources.tms_token.fields.created_at' },
  ],
}
export default tokenList
