import type { PersonaAnimation } from '#shared/schemas/persona-media'

/** A persona's generated animation as stored (migration 0046). */
export interface PersonaAnimationRow extends PersonaAnimation {
  realm: string
  persona_id: string
  ref: string
  created_at: string
}

/** The persona's generated animations (at most one a kind). */
export async function listAnimations(db: D1Database, realm: string, personaId: string): Promise<PersonaAnimationRow[]> {
  const { results } = await db
    .prepare('SELECT * FROM persona_animation WHERE realm = ? AND persona_id = ? ORDER BY kind')
    .bind(realm, personaId)
    .all<PersonaAnimationRow>()
  return results
}

/**
 * Stores a started animation as pending (the provider's job `ref`), replacing the kind's earlier one. A replayed
 * operation (the same idempotency key again) changes nothing: the row of that operation stays as it is (done stays done).
 */
export function startAnimationStatement(
  db: D1Database,
  a: { realm: string; personaId: string; kind: string; provider: string; ref: string; operationId: string; by: string },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO persona_animation (realm, persona_id, kind, provider, status, ref, url, error, operation_id, created_at, updated_at, updated_by)
       VALUES (?1, ?2, ?3, ?4, 'pending', ?5, '', NULL, ?6, ?7, ?7, ?8)
       ON CONFLICT (persona_id, kind) DO UPDATE SET provider = excluded.provider, status = 'pending', ref = excluded.ref, url = '',
         error = NULL, operation_id = excluded.operation_id, updated_at = excluded.updated_at, updated_by = excluded.updated_by
       WHERE persona_animation.operation_id <> excluded.operation_id AND persona_animation.realm = excluded.realm`,
    )
    .bind(a.realm, a.personaId, a.kind, a.provider, a.ref, a.operationId, at, a.by)
}

/** Finishes a pending animation (the same provider job only): done with its URL, or failed with the provider's reason. */
export function finishAnimationStatement(
  db: D1Database,
  realm: string,
  personaId: string,
  kind: string,
  ref: string,
  outcome: { status: 'done'; url: string } | { status: 'failed'; error: string },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE persona_animation SET status = ?, url = ?, error = ?, updated_at = ?
       WHERE realm = ? AND persona_id = ? AND kind = ? AND ref = ? AND status = 'pending'`,
    )
    .bind(outcome.status, outcome.status === 'done' ? outcome.url : '', outcome.status === 'failed' ? outcome.error : null, at, realm, personaId, kind, ref)
}

/** The persona's voice as stored (JSON text or null) and its language. */
export function personaVoiceRow(db: D1Database, realm: string, id: string): Promise<{ voice: string | null; language: string } | null> {
  return db.prepare('SELECT voice, language FROM persona WHERE realm = ? AND id = ?').bind(realm, id).first()
}

/** Writes a persona's voice (the cloned custom voice). */
export function setPersonaVoiceStatement(db: D1Database, realm: string, id: string, voice: unknown, by: string, at: string): D1PreparedStatement {
  return db.prepare('UPDATE persona SET voice = ?, updated_at = ?, updated_by = ? WHERE realm = ? AND id = ?').bind(JSON.stringify(voice), at, by, realm, id)
}

/** The image file key and URL of a persona (what an animation is made from). */
export function personaImageRow(db: D1Database, realm: string, id: string): Promise<{ image_url: string } | null> {
  return db.prepare('SELECT image_url FROM persona WHERE realm = ? AND id = ?').bind(realm, id).first()
}
