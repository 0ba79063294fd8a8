import { FILE_TYPES, type FileExtension, type UploadedFile } from '#shared/schemas/file'

export interface FileRow {
  id: string
  realm: string
  key: string
  name: string
  ext: FileExtension
  kind: string
  content_type: string
  size: number
  width: number | null
  height: number | null
  persist: number
  permanent: number
  uploaded_by: string
  created_at: string
  expires_at: string | null
}

/** The API's view of a stored file, with its public URL under the realm's files base URL. */
export function uploadedFile(row: FileRow, filesBaseUrl: string): UploadedFile {
  return {
    id: row.id,
    cdn_full_url: `${filesBaseUrl.replace(/\/?$/, '/')}${row.key}`,
    name: row.name,
    kind: row.kind as UploadedFile['kind'],
    content_type: row.content_type,
    size: row.size,
    width: row.width,
    height: row.height,
    persist: row.persist === 1,
    permanent: row.permanent === 1,
    expires_at: row.expires_at,
  }
}

export function getFile(db: D1Database, realm: string, id: string): Promise<FileRow | null> {
  return db.prepare('SELECT * FROM file WHERE realm = ? AND id = ?').bind(realm, id).first<FileRow>()
}

/** The policy of every served file: nothing runs, nothing loads but the file itself, nothing frames it. */
export const FILE_POLICY = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox; frame-ancestors 'none'"

/** Headers a stored file is served with: its real type, never sniffed, never run as a page of the console's origin. */
export function fileHeaders(row: Pick<FileRow, 'ext' | 'name' | 'permanent'>): Headers {
  const h = new Headers()
  h.set('Content-Type', FILE_TYPES[row.ext].type)
  h.set('X-Content-Type-Options', 'nosniff')
  const inline = ['image', 'audio', 'video'].includes(FILE_TYPES[row.ext].kind) || row.ext === 'pdf'
  const safeName = row.name.replace(/[^\w.\- ]+/g, '_')
  h.set('Content-Disposition', `${inline ? 'inline' : 'attachment'}; filename="${safeName}"; filename*=UTF-8''${encodeURIComponent(row.name)}`)
  // Whatever a file contains (PDF included: its scripts and forms too), it runs no script, loads nothing and cannot
  // be framed when opened directly: every file gets the same sandbox policy.
  h.set('Content-Security-Policy', FILE_POLICY)
  h.set('Cache-Control', row.permanent ? 'public, max-age=31536000, immutable' : 'private, max-age=300')
  h.set('Cross-Origin-Resource-Policy', 'cross-origin')
  return h
}

/** Removes non-persisted uploads whose time is up (R2 objects and rows). Returns how many were removed. */
export async function cleanupExpiredFiles(env: Pick<Env, 'DB' | 'FILES'>, now = new Date()): Promise<number> {
  let removed = 0
  for (;;) {
    const { results } = await env.DB.prepare('SELECT id, key FROM file WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT 500')
      .bind(now.toISOString())
      .all<{ id: string; key: string }>()
    if (!results.length) return removed
    await env.FILES.delete(results.map((r) => r.key))
    await env.DB.batch(results.map((r) => env.DB.prepare('DELETE FROM file WHERE id = ?').bind(r.id)))
    removed += results.length
  }
}

/** A new file row (every column of FileRow); `orIgnore` keeps the row already stored under the same key (content-addressed files). */
export function insertFileStatement(db: D1Database, row: FileRow, orIgnore = false): D1PreparedStatement {
  const cols = Object.keys(row)
  return db
    .prepare(`INSERT${orIgnore ? ' OR IGNORE' : ''} INTO file (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
    .bind(...Object.values(row))
}

/** Keeps a file for good: persisted files never expire. */
export function persistFileStatement(db: D1Database, realm: string, id: string): D1PreparedStatement {
  return db.prepare('UPDATE file SET persist = 1, expires_at = NULL WHERE realm = ? AND id = ?').bind(realm, id)
}

/** Removes a temporary (not persisted) upload of `nick`'s: changes nothing once an answer or a form kept it. */
export function deleteTemporaryFileStatement(db: D1Database, realm: string, id: string, nick: string): D1PreparedStatement {
  return db.prepare('DELETE FROM file WHERE realm = ? AND id = ? AND uploaded_by = ? AND persist = 0').bind(realm, id, nick)
}

/** Lets a persisted (not permanent) file expire at `expiresAt` again. */
export function unpersistFileStatement(db: D1Database, realm: string, id: string, expiresAt: string): D1PreparedStatement {
  return db.prepare('UPDATE file SET persist = 0, expires_at = ? WHERE realm = ? AND id = ? AND permanent = 0').bind(expiresAt, realm, id)
}

/**
 * The file stored under this object key, for serving it (`/files/…`), or null when unknown or of a deleted realm. The
 * key starts with the realm's code; the caller compares the row's realm with the realm being served.
 */
export function findServedFile(db: D1Database, key: string): Promise<Pick<FileRow, 'realm' | 'ext' | 'name' | 'permanent'> | null> {
  return db
    .prepare('SELECT f.realm, f.ext, f.name, f.permanent FROM file f JOIN realm r ON r.code = f.realm WHERE f.key = ? AND r.deleted_at IS NULL')
    .bind(key)
    .first<Pick<FileRow, 'realm' | 'ext' | 'name' | 'permanent'>>()
}

/** The name of another asset of the realm that uses the file (`self` is the asset being written), or null. */
export async function assetUsingFile(db: D1Database, realm: string, fileId: string, self: string): Promise<string | null> {
  const row = await db.prepare('SELECT name FROM asset WHERE realm = ? AND file_id = ? AND id <> ?').bind(realm, fileId, self).first<{ name: string }>()
  return row?.name ?? null
}

/** The realm's files among these ids that have not expired (an expired upload awaits its removal: it counts as gone). */
export async function liveFilesByIds(db: D1Database, realm: string, ids: readonly string[], now = new Date()): Promise<FileRow[]> {
  if (!ids.length) return []
  const { results } = await db
    .prepare('SELECT * FROM file WHERE realm = ? AND id IN (SELECT value FROM json_each(?)) AND (expires_at IS NULL OR expires_at > ?)')
    .bind(realm, JSON.stringify(ids), now.toISOString())
    .all<FileRow>()
  return results
}
