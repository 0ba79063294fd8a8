import { whenSeconds } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { ErrorLog } from '#shared/schemas/technical'

/** Recent unexpected server errors (`technical/logs`). */
export const errorLogList: ListSpec<ErrorLog> = {
  name: 'error_log',
  apiPath: 'mas/error_log',
  route: 'technical.logs',
  rowId: (r) => String(r.id),
  columns: [
    {
      id: 'at',
      label: 'resources.error_log.fields.at',
      sorting: true,
      width: 170,
      format: whenSeconds,
      time: true,
    },
    { id: 'request_id', label: 'resources.error_log.fields.request_id', width: 220 },
    { id: 'method', label: 'resources.error_log.fields.method', width: 90 },
    { id: 'path', label: 'resources.error_log.fields.path', sorting: true, ellipsis: true, tooltip: true },
    { id: 'actor', label: 'resources.error_log.fields.actor' },
    { id: 'message', label: 'resources.error_log.fields.message', ellipsis: true, tooltip: true },
  ],
  search: [
    { field: 'request_id', type: 'text', label: 'resources.error_log.fields.request_id' },
    { field: 'path', type: 'text', label: 'resources.error_log.fields.path' },
    { field: 'at', type: 'date', label: 'resources.error_log.fields.at' },
  ],
}

export default errorLogList
