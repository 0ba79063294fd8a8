import { auditChanges, type AuditEntry } from '../lib/audit'

/**
 * The audit record of a change, as a statement to run in the same `db.batch()` as the change itself, so a change
 * is never stored without its record and a refused change leaves none.
 */
export function auditStatement(db: D1Database, e: AuditEntry): D1PreparedStatement {
  return db
    .prepare('INSERT INTO audit_log (realm, at, actor, actor_realm, action, entity, entity_id, changes, request_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
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
