import { maskSecret } from '#shared/schemas/entity'

export type AuditAction = 'create' | 'update' | 'delete' | (string & {})

export interface AuditEntry {
  realm: string
  actor: string
  actorRealm?: string
  action: AuditAction
  entity: string
  entityId: string
  /** Values before the change (undefined for a create). */
  before?: Record<string, unknown> | null
  /** Values after the change (undefined for a delete). */
  after?: Record<string, unknown> | null
  /** Fields whose values are masked in the record. */
  secrets?: readonly string[]
  requestId?: string
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/** The changed fields as `field -> [before, after]`, secrets masked. */
export function auditChanges(
  before: Record<string, unknown> | null | undefined,
  after: Record<string, unknown> | null | undefined,
  secrets: readonly string[] = [],
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {}
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])
  for (const f of fields) {
    const b = before?.[f]
    const a = after?.[f]
    if (same(b, a)) continue
    const mask = (v: unknown) => (secrets.includes(f) && typeof v === 'string' && v ? maskSecret(v) : (v ?? null))
    out[f] = [mask(b), mask(a)]
  }
  return out
}

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
