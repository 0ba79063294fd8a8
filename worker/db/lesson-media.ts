/** A lesson's generated narration audio and persona videos (migration 0061), one of each a slide. */
export interface LessonMediaRow {
  realm: string
  lesson_id: string
  slide_id: string
  kind: 'audio' | 'video'
  hash: string
  provider: string
  status: 'pending' | 'done' | 'failed'
  ref: string
  file_id: string | null
  error: string | null
  operation_id: string | null
  created_at: string
  updated_at: string
  updated_by: string
  /** The stored file's key (joined), when done. */
  file_key: string | null
}

/** The lesson's media rows with their files' keys. */
export async function listLessonMedia(db: D1Database, realm: string, lessonId: string): Promise<LessonMediaRow[]> {
  const { results } = await db
    .prepare(
      `SELECT m.*, f.key AS file_key FROM lesson_media m LEFT JOIN file f ON f.realm = m.realm AND f.id = m.file_id
       WHERE m.realm = ? AND m.lesson_id = ? ORDER BY m.slide_id, m.kind`,
    )
    .bind(realm, lessonId)
    .all<LessonMediaRow>()
  return results
}

/** The realm's stored file under this content-addressed key (a medium made before, for any lesson), or null. */
export function mediaFileByKey(db: D1Database, realm: string, key: string): Promise<{ id: string; key: string } | null> {
  return db.prepare('SELECT id, key FROM file WHERE realm = ? AND key = ?').bind(realm, key).first()
}

/** Writes a slide's medium (replacing the slide's earlier one of the kind). */
export function putLessonMediaStatement(
  db: D1Database,
  m: Pick<LessonMediaRow, 'realm' | 'lesson_id' | 'slide_id' | 'kind' | 'hash' | 'provider' | 'status' | 'ref' | 'file_id' | 'error' | 'operation_id'>,
  by: string,
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO lesson_media (realm, lesson_id, slide_id, kind, hash, provider, status, ref, file_id, error, operation_id, created_at, updated_at, updated_by)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12, ?13)
       ON CONFLICT (realm, lesson_id, slide_id, kind) DO UPDATE SET hash = excluded.hash, provider = excluded.provider, status = excluded.status,
         ref = excluded.ref, file_id = excluded.file_id, error = excluded.error, operation_id = excluded.operation_id,
         updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    )
    .bind(m.realm, m.lesson_id, m.slide_id, m.kind, m.hash, m.provider, m.status, m.ref, m.file_id, m.error, m.operation_id, at, by)
}

/** Finishes a pending video (the same provider job only): done with its stored file, or failed with the provider's reason. */
export function finishLessonVideoStatement(
  db: D1Database,
  m: Pick<LessonMediaRow, 'realm' | 'lesson_id' | 'slide_id' | 'ref'>,
  outcome: { status: 'done'; fileId: string } | { status: 'failed'; error: string },
  at: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE lesson_media SET status = ?, file_id = ?, error = ?, updated_at = ?
       WHERE realm = ? AND lesson_id = ? AND slide_id = ? AND kind = 'video' AND ref = ? AND status = 'pending'`,
    )
    .bind(
      outcome.status,
      outcome.status === 'done' ? outcome.fileId : null,
      outcome.status === 'failed' ? outcome.error : null,
      at,
      m.realm,
      m.lesson_id,
      m.slide_id,
      m.ref,
    )
}

/** Copies a model's finished media to a lesson published from it (the files are shared: their keys are content-addressed). */
export function copyLessonMediaStatement(db: D1Database, realm: string, fromId: string, toId: string, by: string, at: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO lesson_media (realm, lesson_id, slide_id, kind, hash, provider, status, ref, file_id, error, operation_id, created_at, updated_at, updated_by)
       SELECT realm, ?3, slide_id, kind, hash, provider, status, ref, file_id, error, operation_id, ?4, ?4, ?5
       FROM lesson_media WHERE realm = ?1 AND lesson_id = ?2 AND status = 'done'`,
    )
    .bind(realm, fromId, toId, at, by)
}

/** Removes a lesson's media rows (a persona switch confirmed, or the lesson deleted). */
export function deleteLessonMediaStatement(db: D1Database, realm: string, lessonId: string): D1PreparedStatement {
  return db.prepare('DELETE FROM lesson_media WHERE realm = ? AND lesson_id = ?').bind(realm, lessonId)
}

/** Of these files, those no lesson's media uses any more (to be removed with their R2 objects). */
export async function unusedMediaFiles(db: D1Database, realm: string, fileIds: string[]): Promise<{ id: string; key: string }[]> {
  if (!fileIds.length) return []
  const { results } = await db
    .prepare(
      `SELECT f.id, f.key FROM file f WHERE f.realm = ?1 AND f.id IN (SELECT value FROM json_each(?2))
       AND NOT EXISTS (SELECT 1 FROM lesson_media m WHERE m.realm = ?1 AND m.file_id = f.id)`,
    )
    .bind(realm, JSON.stringify(fileIds))
    .all<{ id: string; key: string }>()
  return results
}

/** Removes file rows (their R2 objects are removed by the caller after). */
export function deleteFilesStatement(db: D1Database, realm: string, ids: string[]): D1PreparedStatement {
  return db.prepare('DELETE FROM file WHERE realm = ? AND id IN (SELECT value FROM json_each(?))').bind(realm, JSON.stringify(ids))
}

/** Whether any paid operation of the realm was made under `<key>:…` (a lesson media generation already attempted with this key). */
export async function operationsUnderKey(db: D1Database, realm: string, key: string): Promise<boolean> {
  const prefix = `${key}:`
  const row = await db
    .prepare('SELECT 1 AS x FROM ai_operation WHERE realm = ? AND substr(idempotency_key, 1, ?) = ? LIMIT 1')
    .bind(realm, prefix.length, prefix)
    .first<{ x: number }>()
  return row !== null
}
