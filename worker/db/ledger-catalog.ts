import type { LedgerContent } from '#shared/schemas/ledger-entity'

/**
 * The ledger's catalogue: prices (ledger_content) and credit packages (ledger_package). The movements, accounts and
 * lists live in ledger.ts.
 */

/**
 * A price of `realm` set to `price` (created when missing). On an existing row only the `changed` columns and the
 * stamps are overwritten, so a propagated edit keeps what each realm set differently.
 */
export function upsertContentStatement(
  db: D1Database,
  realm: string,
  price: Pick<LedgerContent, 'key' | 'name' | 'description' | 'points' | 'is_system' | 'updated_at' | 'updated_by'>,
  changed: string[],
): D1PreparedStatement {
  const set = [...changed, 'updated_at', 'updated_by'].map((f) => `${f} = excluded.${f}`).join(', ')
  return db
    .prepare(
      `INSERT INTO ledger_content (realm, key, name, description, points, is_system, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (realm, key) DO UPDATE SET ${set}`,
    )
    .bind(realm, price.key, price.name, price.description, price.points, price.is_system ? 1 : 0, price.updated_at, price.updated_by)
}

export function deleteContentStatement(db: D1Database, realm: string, key: string): D1PreparedStatement {
  return db.prepare('DELETE FROM ledger_content WHERE realm = ? AND key = ?').bind(realm, key)
}

/** The packages on sale in the realm (enabled, not deleted), recommended first, then by cost and name (raw rows). */
export async function packagesOnSale(db: D1Database, realm: string): Promise<Record<string, unknown>[]> {
  const { results } = await db
    .prepare('SELECT * FROM ledger_package WHERE realm = ? AND enabled = 1 AND deleted_at IS NULL ORDER BY recommended DESC, cost, name')
    .bind(realm)
    .all<Record<string, unknown>>()
  return results
}

/** Marks a package deleted (and off sale); the row stays for the purchases that name it. */
export function softDeletePackageStatement(db: D1Database, realm: string, id: string, by: string, at: string): D1PreparedStatement {
  return db
    .prepare('UPDATE ledger_package SET deleted_at = ?, enabled = 0, updated_at = ?, updated_by = ? WHERE id = ? AND realm = ?')
    .bind(at, at, by, id, realm)
}

/** A wallet's balance and last change, or null when it never moved. Accounts are keyed by an id that embeds the realm. */
export function accountBalance(db: D1Database, accountId: string): Promise<{ balance: number; updated_at: string } | null> {
  return db.prepare('SELECT balance, updated_at FROM ledger_account WHERE id = ?').bind(accountId).first<{ balance: number; updated_at: string }>()
}

/** A wallet's balance under its account id (`balance` null when it never moved), as read ahead by ownWalletRead. */
export interface WalletBalance {
  id: string
  balance: number | null
  updated_at: string | null
}

/**
 * The read of the wallet of a session's own user in the realm it acts in (accountId(userWallet(realm, nick))), for the
 * Worker entry's batch of a console page: the top bar of every page shows it.
 */
export function ownWalletRead(db: D1Database, tokenHash: string): D1PreparedStatement {
  return db
    .prepare(
      `SELECT w.id, a.balance, a.updated_at FROM (SELECT 'user:' || COALESCE(s.active_realm, s.realm) || ':' || s.nick AS id FROM session s WHERE s.token_hash = ?) w
       LEFT JOIN ledger_account a ON a.id = w.id`,
    )
    .bind(tokenHash)
}

/** The points of the realm's prices among `keys` (unknown keys are absent). */
export async function contentPrices(db: D1Database, realm: string, keys: string[]): Promise<Map<string, number>> {
  const { results } = await db
    .prepare('SELECT key, points FROM ledger_content WHERE realm = ? AND key IN (SELECT value FROM json_each(?))')
    .bind(realm, JSON.stringify(keys))
    .all<{ key: string; points: number }>()
  return new Map(results.map((r) => [r.key, r.points]))
}

/** A package of the realm that is on sale (enabled, not deleted), as its raw row, or null. */
export function packageOnSale(db: D1Database, realm: string, id: string): Promise<Record<string, unknown> | null> {
  return db
    .prepare('SELECT * FROM ledger_package WHERE id = ? AND realm = ? AND enabled = 1 AND deleted_at IS NULL')
    .bind(id, realm)
    .first<Record<string, unknown>>()
}
