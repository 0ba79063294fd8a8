import type { ErrorItem } from '#shared/schemas/error'
import type { ExtraFieldEntity } from '#shared/schemas/extra-field'

export interface ExtraFieldRule {
  key: string
  label: string
  required: boolean
  active: boolean
}

/** The extra fields declared for an entity in a realm, in display order. */
export async function extraFieldsOf(db: D1Database, realm: string, entity: ExtraFieldEntity): Promise<ExtraFieldRule[]> {
  const { results } = await db
    .prepare('SELECT key, label, required, active FROM extra_field WHERE realm = ? AND entity = ? ORDER BY position, key')
    .bind(realm, entity)
    .all<{ key: string; label: string; required: number; active: number }>()
  return results.map((r) => ({ key: r.key, label: r.label, required: r.required === 1, active: r.active === 1 }))
}

/**
 * Errors of an entity's extra-field values (seed 002 §3): a required active field must have a value, and only
 * declared keys are accepted. Inactive fields keep whatever value they had and are never required.
 * Any entity that saves extra values calls this before writing (users now; tasks and others later).
 */
export async function checkExtraFields(db: D1Database, realm: string, entity: ExtraFieldEntity, values: Record<string, string>): Promise<ErrorItem[]> {
  const rules = await extraFieldsOf(db, realm, entity)
  return extraFieldErrors(rules, values)
}

/** The rule itself, for callers that already hold the field list (imports check many rows). */
export function extraFieldErrors(rules: ExtraFieldRule[], values: Record<string, string>): ErrorItem[] {
  const errors: ErrorItem[] = []
  const known = new Set(rules.map((r) => r.key))
  for (const key of Object.keys(values)) {
    if (!known.has(key)) errors.push({ field: `extra.${key}`, cause: 'unknown_field', value: key, message: 'validation.extra_unknown' })
  }
  for (const r of rules) {
    if (r.active && r.required && !(values[r.key] ?? '').trim())
      errors.push({ field: `extra.${r.key}`, cause: 'required', value: r.label, message: 'validation.required' })
  }
  return errors
}
