import type { AccountRef } from './ledger'
import type { Scope } from '../lib/entity'

/**
 * Reads of posted movements for reversals, movement filters and the realm's invariant check. A movement's entries
 * may touch accounts of several realms (cross-realm transfers), so reads that follow a movement found in the realm
 * go by its id.
 */

/** A movement of the realm, or null. */
export function findTransaction(db: D1Database, realm: string, id: string): Promise<{ id: string; type: string; billing_key: string } | null> {
  return db
    .prepare('SELECT id, type, billing_key FROM ledger_transaction WHERE id = ? AND realm = ?')
    .bind(id, realm)
    .first<{ id: string; type: string; billing_key: string }>()
}

/** True when a reversal of the movement exists. */
export async function isReversed(db: D1Database, transactionId: string): Promise<boolean> {
  return (await db.prepare('SELECT 1 FROM ledger_transaction WHERE reverses = ?').bind(transactionId).first()) !== null
}

/** The movement's entries with their accounts, in order. */
export async function transactionLines(db: D1Database, transactionId: string): Promise<(AccountRef & { amount: number })[]> {
  const { results } = await db
    .prepare(
      'SELECT a.realm, a.kind, a.owner, e.amount FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE e.transaction_id = ? ORDER BY e.id',
    )
    .bind(transactionId)
    .all<AccountRef & { amount: number }>()
  return results
}

/** Movements list filter: those with an entry on the wallet of one of these users of the realm. */
export function movementsOfUsers(realm: string, nicks: string[]): Scope {
  return {
    where: `id IN (SELECT e.transaction_id FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE a.realm = ? AND a.kind = 'user' AND a.owner IN (SELECT value FROM json_each(?)))`,
    params: [realm, JSON.stringify(nicks)],
  }
}

export interface LedgerInvariants {
  accounts: number
  balance_sum: number
  mismatched: number
  negative: number
  transactions: number
  unbalanced: number
  entries_sum: number
  problems: Record<string, unknown>[]
}

/** The realm's ledger invariants: balances equal their entries, wallets not negative, every movement sums to zero. */
export async function ledgerInvariants(db: D1Database, realm: string): Promise<LedgerInvariants> {
  const [acc, tx, bad] = await db.batch([
    db
      .prepare(
        `SELECT COUNT(*) AS accounts, COALESCE(SUM(a.balance), 0) AS balance_sum,
             COALESCE(SUM(a.balance <> COALESCE((SELECT SUM(e.amount) FROM ledger_entry e WHERE e.account_id = a.id), 0)), 0) AS mismatched,
             COALESCE(SUM(a.kind IN ('user', 'realm') AND a.balance < 0), 0) AS negative
           FROM ledger_account a WHERE a.realm = ?`,
      )
      .bind(realm),
    db
      .prepare(
        `SELECT COUNT(*) AS transactions, COALESCE(SUM(s <> 0), 0) AS unbalanced, COALESCE(SUM(s), 0) AS entries_sum
           FROM (SELECT (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entry e WHERE e.transaction_id = t.id) AS s
                 FROM ledger_transaction t WHERE t.realm = ? OR t.id IN (SELECT transaction_id FROM ledger_entry WHERE realm = ?))`,
      )
      .bind(realm, realm),
    db
      .prepare(
        `SELECT a.id, a.balance, COALESCE((SELECT SUM(e.amount) FROM ledger_entry e WHERE e.account_id = a.id), 0) AS entries
           FROM ledger_account a WHERE a.realm = ? AND (a.balance <> entries OR (a.kind IN ('user', 'realm') AND a.balance < 0)) LIMIT 20`,
      )
      .bind(realm),
  ])
  const a = acc.results[0] as { accounts: number; balance_sum: number; mismatched: number; negative: number }
  const t = tx.results[0] as { transactions: number; unbalanced: number; entries_sum: number }
  return { ...a, ...t, problems: bad.results as Record<string, unknown>[] }
}
