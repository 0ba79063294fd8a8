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

/** True when the realm already declares an extra field with this key for the entity. */
export async function extraFieldKeyTaken(db: D1Database, realm: string, entity: string, key: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM extra_field WHERE realm = ? AND entity = ? AND key = ?').bind(realm, entity, key).first()) !== null
}
