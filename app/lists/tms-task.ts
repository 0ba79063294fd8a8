import type { ListSpec } from '~/lib/lists'
import { when } from '~/lib/list-format'
import { TASK_STATUSES } from '#shared/schemas/tms/constants'
import type { Task } from '#shared/schemas/tms/task'

/** Published tasks (`tms/task`) with their date status and the newer-version offer. */
export const taskList: ListSpec<Task> = {
  name: 'tms_task',
  apiPath: 'tms/task',
  route: 'tms.task.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'title', label: 'resources.tms_task.fields.title', sorting: true, ellipsis: true, tooltip: true },
    { id: 'status', label: 'resources.tms_task.fields.status', sorting: true, width: 120, format: (v, _r, t) => t(`tms.status.${String(v)}`) },
    { id: 'rooms', label: 'resources.tms_task.fields.rooms', ellipsis: true, tooltip: true },
    { id: 'publish_at', label: 'resources.tms_task.fields.publish_at', sorting: true, width: 150, format: when, time: true },
    { id: 'expire_at', label: 'resources.tms_task.fields.expire_at', sorting: true, width: 150, format: when, time: true },
    {
      id: 'model_version',
      label: 'resources.tms_task.fields.model_version',
      align: 'right',
      width: 130,
      format: (v, row, t) => (row.newer_version ? t('tms.task.version_newer', { version: String(v), latest: String(row.latest_version) }) : String(v)),
    },
    { id: 'created_by', label: 'resources.tms.fields.created_by', width: 150 },
  ],
  search: [
    { field: 'status', type: 'select', label: 'resources.tms_task.fields.status', options: TASK_STATUSES.map((s) => ({ label: `tms.status.${s}`, value: s })) },
    { field: 'room', type: 'select', label: 'resources.tms_task.fields.rooms', options: [] },
    { field: 'category', type: 'select', label: 'resources.tms_model.fields.categories', options: [] },
    { field: 'publish_at', type: 'date', label: 'resources.tms_task.fields.publish_at' },
    { field: 'expire_at', type: 'date', label: 'resources.tms_task.fields.expire_at' },
  ],
}
export default taskList
