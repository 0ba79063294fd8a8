/** Definitive checks of uploaded persona images (migration 0047): a face found, no face, a celebrity. */
export interface ImageCheckRow {
  realm: string
  file_id: string
  outcome: 'checked' | 'no_face' | 'celebrity'
  provider: string
  model: string
  faces: number
  celebrity: string | null
  confidence: number | null
  checked_at: string
  checked_by: string
}

/** The realm's kept check of an image, if any. */
export function imageCheckRow(db: D1Database, realm: string, fileId: string): Promise<ImageCheckRow | null> {
  return db.prepare('SELECT * FROM persona_image_check WHERE realm = ? AND file_id = ?').bind(realm, fileId).first<ImageCheckRow>()
}

/** Keeps (or replaces) the check of an image. */
export function saveImageCheckStatement(db: D1Database, row: ImageCheckRow): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO persona_image_check (realm, file_id, outcome, provider, model, faces, celebrity, confidence, checked_at, checked_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (realm, file_id) DO UPDATE SET outcome = excluded.outcome, provider = excluded.provider, model = excluded.model,
         faces = excluded.faces, celebrity = excluded.celebrity, confidence = excluded.confidence, checked_at = excluded.checked_at,
         checked_by = excluded.checked_by`,
    )
    .bind(row.realm, row.file_id, row.outcome, row.provider, row.model, row.faces, row.celebrity, row.confidence, row.checked_at, row.checked_by)
}
