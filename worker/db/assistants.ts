/**
 * Assistants (issue 16 "Assistants"): the SQL the assistant API needs beside the entity machinery. Every statement
 * is scoped by the realm.
 */

/** The assistant list's and get's computed `persona_name`: the name of the assistant's persona. */
export const ASSISTANT_PERSONA_NAME_COLUMN = 'SELECT p.name FROM persona p WHERE p.realm = "assistant".realm AND p.id = "assistant".persona_id'

/** The name of a persona of the realm, or null when it has none of that id. */
export async function personaName(db: D1Database, realm: string, personaId: string): Promise<string | null> {
  const row = await db.prepare('SELECT name FROM persona WHERE realm = ? AND id = ?').bind(realm, personaId).first<{ name: string }>()
  return row?.name ?? null
}

/** Clears the standard flag of the realm's other assistants (one standard assistant a realm), in the write's batch. */
export function clearOtherStandardStatement(db: D1Database, realm: string, keepId: string): D1PreparedStatement {
  return db.prepare('UPDATE assistant SET standard = 0 WHERE realm = ? AND standard = 1 AND id <> ?').bind(realm, keepId)
}

/** How many of the realm's assistants are built on this persona (a persona in use cannot be deleted). */
export async function assistantsOfPersona(db: D1Database, realm: string, personaId: string): Promise<number> {
  const row = await db.prepare('SELECT COUNT(*) AS n FROM assistant WHERE realm = ? AND persona_id = ?').bind(realm, personaId).first<{ n: number }>()
  return row?.n ?? 0
}
