/**
 * Session handover codes (moving a session to another host of the console): rows keyed by the code's hash. The
 * table is not a tenant table in the usual sense: a code is found by its hash alone and the handler compares the row's
 * realm with the host's.
 */
export interface HandoverRow {
  code_hash: string
  token_hash: string
  realm: string
  expires_at: string
  used_at: string | null
  state_hash: string | null
  origin: string | null
  target_url: string | null
  nonce_hash: string | null
  confirmed_at: string | null
}

export async function insertHandover(
  db: D1Database,
  row: { codeHash: string; tokenHash: string; realm: string; expiresAt: string; stateHash: string; origin: string; targetUrl: string },
): Promise<void> {
  await db
    .prepare('INSERT INTO session_handover (code_hash, token_hash, realm, expires_at, state_hash, origin, target_url) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .bind(row.codeHash, row.tokenHash, row.realm, row.expiresAt, row.stateHash, row.origin, row.targetUrl)
    .run()
}

export function findHandover(db: D1Database, codeHash: string): Promise<HandoverRow | null> {
  return db.prepare('SELECT * FROM session_handover WHERE code_hash = ?').bind(codeHash).first<HandoverRow>()
}

/** Marks a code used; false when it already was (another request spent it first). */
export async function spendHandoverCode(db: D1Database, codeHash: string): Promise<boolean> {
  const r = await db.prepare('UPDATE session_handover SET used_at = ? WHERE code_hash = ? AND used_at IS NULL').bind(new Date().toISOString(), codeHash).run()
  return (r.meta.changes ?? 0) > 0
}

/** Binds the target host's nonce to an unused code; false when a nonce was bound already or the code is spent. */
export async function bindHandoverNonce(db: D1Database, codeHash: string, nonceHash: string): Promise<boolean> {
  const r = await db
    .prepare('UPDATE session_handover SET nonce_hash = ? WHERE code_hash = ? AND nonce_hash IS NULL AND used_at IS NULL')
    .bind(nonceHash, codeHash)
    .run()
  return (r.meta.changes ?? 0) > 0
}

/** Marks an unused code confirmed by the starting host; false when it was confirmed already or is spent. */
export async function confirmHandover(db: D1Database, codeHash: string): Promise<boolean> {
  const r = await db
    .prepare('UPDATE session_handover SET confirmed_at = ? WHERE code_hash = ? AND confirmed_at IS NULL AND used_at IS NULL')
    .bind(new Date().toISOString(), codeHash)
    .run()
  return (r.meta.changes ?? 0) > 0
}
