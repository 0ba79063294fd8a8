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
