import type { ErrorItem } from '#shared/schemas/error'
import type { ExtraFieldEntity } from '#shared/schemas/extra-field'
import { extraFieldsOf, type ExtraFieldRule } from '../db/extra-fields'

export type { ExtraFieldRule }

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
