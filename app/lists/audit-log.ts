import { whenSeconds } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { AuditLog } from '#shared/schemas/technical'

const at = whenSeconds
export const AUDIT_ACTIONS = ['create', 'update', 'delete', 'disable', 'enable', 'persist', 'generate'] as const

/** The audit trail (`technical/audit_logs`). */
export const auditLogList: ListSpec<AuditLog> = {
  name: 'audit_log',
  apiPath: 'mas/audit_log',
  route: 'technical.audit_logs',
  rowId: (r) => String(r.id),
  columns: [
    { id: 'at', label: 'resources.audit_log.fields.at', sorting: true, width: 170, format: at, time: true },
    { id: 'actor', label: 'resources.audit_log.fields.actor', sorting: true },
    {
      id: 'action',
      label: 'resources.audit_log.fields.action',
      sorting: true,
      width: 110,
      format: (v, _r, t) => t(`resources.audit_log.action.${String(v)}`, { defaultValue: String(v) }),
    },
    { id: 'entity', label: 'resources.audit_log.fields.entity', sorting: true, width: 140 },
    { id: 'entity_id', label: 'resources.audit_log.fields.entity_id', ellipsis: true, tooltip: true },
    {
      id: 'changes',
      label: 'resources.audit_log.fields.changes',
      ellipsis: true,
      tooltip: true,
      format: (v) => (v && typeof v === 'object' ? Object.keys(v).join(', ') : ''),
    },
    { id: 'request_id', label: 'resources.audit_log.fields.request_id', ellipsis: true, tooltip: true },
  ],
  search: [
    { field: 'entity', type: 'text', label: 'resources.audit_log.fields.entity' },
    {
      field: 'action',
      type: 'select',
      label: 'resources.audit_log.fields.action',
      options: AUDIT_ACTIONS.map((a) => ({ value: a, label: `resources.audit_log.action.${a}` })),
    },
    { field: 'actor', type: 'text', label: 'resources.audit_log.fields.actor' },
    { field: 'entity_id', type: 'text', label: 'resources.audit_log.fields.entity_id' },
    { field: 'request_id', type: 'text', label: 'resources.audit_log.fields.request_id' },
    { field: 'at', type: 'date', label: 'resources.audit_log.fields.at' },
  ],
}

export default auditLogList
