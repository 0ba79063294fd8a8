/** Idempotency keys of state-changing ledger calls: one row per (realm, key), `pending` while the first call runs. */
export type IdempotencyRow = { request_hash: string; status: string; response_status: number; response: string; created_at: string }

/** Claims the key as pending; false when the realm already has a row for it. */
export async function claimKey(db: D1Database, realm: string, key: string, hash: string, at: string): Promise<boolean> {
  const claimed = await db
    .prepare(
      `INSERT INTO ledger_idempotency (realm, key, request_hash, status, created_at) VALUES (?, ?, ?, 'pending', ?) ON CONFLICT DO NOTHING RETURNING key`,
    )
    .bind(realm, key, hash, at)
    .first()
  return claimed !== null
}

/** The read of a key's row, for a caller's read batch (or `.first()` alone). */
export function idempotencyRead(db: D1Database, realm: string, key: string): D1PreparedStatement {
  return db.prepare('SELECT request_hash, status, response_status, response, created_at FROM ledger_idempotency WHERE realm = ? AND key = ?').bind(realm, key)
}

/** Takes over a pending claim created at `createdAt` when that is before `staleBefore`; false when it is not (or gone). */
export async function retakeStaleKey(db: D1Database, realm: string, key: string, createdAt: string, staleBefore: string, at: string): Promise<boolean> {
  const retaken = await db
    .prepare(
      `UPDATE ledger_idempotency SET created_at = ? WHERE realm = ? AND key = ? AND status = 'pending' AND created_at = ? AND created_at < ? RETURNING key`,
    )
    .bind(at, realm, key, createdAt, staleBefore)
    .first()
  return retaken !== null
}

/** Stores the answer of the call holding the pending claim (in the same batch as its movement). */
export function keyDoneStatement(db: D1Database, realm: string, key: string, status: number, answer: unknown): D1PreparedStatement {
  return db
    .prepare(`UPDATE ledger_idempotency SET status = 'done', response_status = ?, response = ? WHERE realm = ? AND key = ? AND status = 'pending'`)
    .bind(status, JSON.stringify(answer), realm, key)
}

/** Frees a pending claim (the call was refused: nothing was posted). */
export async function releaseKey(db: D1Database, realm: string, key: string): Promise<void> {
  await db.prepare(`DELETE FROM ledger_idempotency WHERE realm = ? AND key = ? AND status = 'pending'`).bind(realm, key).run()
}

/** Removes the stale pending claim created at `createdAt` (in the batch that stores the new answer). */
export function takeOverStatement(db: D1Database, realm: string, key: string, createdAt: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM ledger_idempotency WHERE realm = ? AND key = ? AND status = 'pending' AND created_at = ?`).bind(realm, key, createdAt)
}

/** The INSERT storing a call's answer under its key (first statement of the movement's batch). */
export function idempotencyStore(db: D1Database, realm: string, key: string, hash: string, o: { status: number; answer: unknown }): D1PreparedStatement {
  return db
    .prepare(`INSERT INTO ledger_idempotency (realm, key, request_hash, status, response_status, response, created_at) VALUES (?, ?, ?, 'done', ?, ?, ?)`)
    .bind(realm, key, hash, o.status, JSON.stringify(o.answer), new Date().toISOString())
}
