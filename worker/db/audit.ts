import { auditChanges, type AuditEntry } from '../lib/audit'

/**
 * The audit record of a change, as a statement to run in the same `db.batch()` as the change itself, so a change
 * is never stored without its record and a refused change leaves none. With `afterChange` the record is written
 * only when the statement run just before it in the batch changed one row (a conditional update that may find none).
 */
export function auditStatement(db: D1Database, e: AuditEntry, opts: { afterChange?: boolean } = {}): D1PreparedStatement {
  // afterChange: written only when the batch's statement just before changed exactly one row (a conditional update).
  const insert = 'INSERT INTO audit_log (realm, at, actor, actor_realm, action, entity, entity_id, changes, request_id)'
  return db
    .prepare(opts.afterChange ? `${insert} SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() = 1` : `${insert} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .bind(
      e.realm,
      new Date().toISOString(),
      e.actor,
      e.actorRealm ?? e.realm,
      e.action,
      e.entity,
      e.entityId,
      JSON.stringify(auditChanges(e.before, e.after, e.secrets)),
      e.requestId ?? '',
    )
}
