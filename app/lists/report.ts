import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import { REPORT_STATUSES, REPORT_TARGETS, type ComplaintReport } from '#shared/schemas/report'

const at = when

/** Complaint reports (`realm/report`). */
export const reportList: ListSpec<ComplaintReport> = {
  name: 'report',
  apiPath: 'mas/report',
  route: 'realm.report',
  rowId: (r) => r.id,
  columns: [
    { id: 'created_at', label: 'resources.report.fields.created_at', sorting: true, width: 150, format: at, time: true },
    { id: 'status', label: 'resources.report.fields.status', sorting: true, width: 120, format: (v, _r, t) => t(`resources.report.status.${String(v)}`) },
    {
      id: 'target_type',
      label: 'resources.report.fields.target_type',
      sorting: true,
      width: 120,
      format: (v, _r, t) => t(`resources.report.target.${String(v)}`),
    },
    { id: 'target_id', label: 'resources.report.fields.target_id', ellipsis: true, tooltip: true },
    {
      id: 'reason',
      label: 'resources.report.fields.reason',
      sorting: true,
      format: (v, _r, t) => t(`resources.report.reason.${String(v)}`, { defaultValue: String(v) }),
    },
    { id: 'message', label: 'resources.report.fields.message', ellipsis: true, tooltip: true },
    { id: 'reporter', label: 'resources.report.fields.reporter', sorting: true },
    { id: 'resolution', label: 'resources.report.fields.resolution', ellipsis: true, tooltip: true },
  ],
  search: [
    {
      field: 'status',
      type: 'select',
      label: 'resources.report.fields.status',
      options: REPORT_STATUSES.map((s) => ({ value: s, label: `resources.report.status.${s}` })),
    },
    {
      field: 'target_type',
      type: 'select',
      label: 'resources.report.fields.target_type',
      options: REPORT_TARGETS.map((s) => ({ value: s, label: `resources.report.target.${s}` })),
    },
    { field: 'reporter', type: 'text', label: 'resources.report.fields.reporter' },
    { field: 'created_at', type: 'date', label: 'resources.report.fields.created_at' },
  ],
}

export default reportList
