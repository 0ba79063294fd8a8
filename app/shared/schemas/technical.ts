import { defineEntity } from './entity'

/** One audit record (worker/lib/audit.ts): who changed what, when, with the changed fields before and after. */
export type AuditLog = {
  id: number
  realm: string
  at: string
  actor: string
  actor_realm: string
  action: string
  entity: string
  entity_id: string
  /** field → [before, after], secrets masked. */
  changes: Record<string, [unknown, unknown]>
  request_id: string
}

/** The audit trail, read-only (technical/audit_logs). */
export const auditLogEntity = defineEntity<AuditLog>({
  name: 'audit_log',
  table: 'audit_log',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'int', sort: true, list: true },
    realm: { type: 'text', list: true },
    at: { type: 'text', sort: true, list: true, filter: 'date' },
    actor: { type: 'text', search: true, sort: true, list: true, filter: 'eq' },
    actor_realm: { type: 'text', list: true, filter: 'eq' },
    action: { type: 'text', sort: true, list: true, filter: 'eq' },
    entity: { type: 'text', sort: true, list: true, filter: 'eq' },
    entity_id: { type: 'text', search: true, list: true, filter: 'eq' },
    changes: { type: 'json', list: true },
    request_id: { type: 'text', search: true, list: true, filter: 'eq' },
  },
  defaultOrder: '-id',
})

/** An unexpected server error of the API, kept for technical/logs. */
export type ErrorLog = {
  id: number
  realm: string
  at: string
  request_id: string
  method: string
  path: string
  actor: string
  message: string
  stack: string
}

export const errorLogEntity = defineEntity<ErrorLog>({
  name: 'error_log',
  table: 'error_log',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'int', sort: true, list: true },
    realm: { type: 'text', list: true },
    at: { type: 'text', sort: true, list: true, filter: 'date' },
    request_id: { type: 'text', search: true, list: true, filter: 'eq' },
    method: { type: 'text', list: true, filter: 'eq' },
    path: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    actor: { type: 'text', list: true, filter: 'eq' },
    message: { type: 'text', search: true, list: true },
    stack: { type: 'text' },
  },
  defaultOrder: '-id',
})

/** How long server errors are kept. */
export const ERROR_LOG_DAYS = 30
