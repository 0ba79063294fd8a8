import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { issuanceAccount, newBillingKey, postingStatements, userWallet, type AccountRef } from '../../worker/db/ledger'
import { DEMO, api, userWith } from './helpers'

export const DASH = 'dashboard_dashboard_access'

/** Credits issued to a wallet through the ledger itself (an issuance transaction), as the demo seed does. */
export async function grant(account: AccountRef, points: number): Promise<void> {
  await env.DB.batch(
    postingStatements(env.DB, {
      id: `tx_test_${crypto.randomUUID()}`,
      realm: account.realm,
      type: 'issuance',
      actor: 'test',
      description: 'test grant',
      lines: [
        { account: issuanceAccount(account.realm), amount: -points },
        { account, amount: points },
      ],
      billingKey: newBillingKey(),
      createdAt: new Date().toISOString(),
    }),
  )
}

/** A demo staff member holding `permissions` (plus dashboard access) and `points` credits in their wallet. */
export async function funded(points: number, permissions: string[] = ['ledger_transfer_create']) {
  const user = await userWith('demo', [DASH, ...permissions, `x_${crypto.randomUUID()}`])
  if (points > 0) await grant(userWallet('demo', user.nick), points)
  return user
}

/** A fresh staff member of the demo realm without any ledger permission (a recipient). */
export const recipient = () => userWith('demo', [DASH, `x_${crypto.randomUUID()}`])

export const key = () => `k-${crypto.randomUUID()}`

/** The wallet balance of a demo user, read from the ledger's own account row. */
export async function balance(nick: string, realm = 'demo'): Promise<number> {
  const row = await env.DB.prepare('SELECT balance FROM ledger_account WHERE id = ?').bind(`user:${realm}:${nick}`).first<{ balance: number }>()
  return row?.balance ?? 0
}

/** POST a movement with a fresh idempotency key unless the body carries one. */
export function move(path: string, token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return api(DEMO, `ledger/transaction/${path}`, { method: 'POST', token, json: { idempotency_key: key(), ...body }, headers })
}

/** The ledger's invariants over every row, asserted: entries sum to zero per transaction, balances equal entries, no wallet below zero. */
export async function expectInvariants(): Promise<void> {
  const [tx, acc, neg, total] = await env.DB.batch([
    env.DB.prepare('SELECT COUNT(*) AS n FROM (SELECT transaction_id, SUM(amount) AS s FROM ledger_entry GROUP BY transaction_id HAVING s <> 0)'),
    env.DB.prepare(
      'SELECT COUNT(*) AS n FROM ledger_account a WHERE a.balance <> COALESCE((SELECT SUM(amount) FROM ledger_entry e WHERE e.account_id = a.id), 0)',
    ),
    env.DB.prepare("SELECT COUNT(*) AS n FROM ledger_account WHERE kind IN ('user', 'realm') AND balance < 0"),
    env.DB.prepare('SELECT COALESCE(SUM(amount), 0) AS n FROM ledger_entry'),
  ])
  const n = (r: D1Result) => (r.results[0] as { n: number }).n
  expect({ unbalanced: n(tx), mismatched: n(acc), negative: n(neg), sum: n(total) }).toEqual({ unbalanced: 0, mismatched: 0, negative: 0, sum: 0 })
}

/**
 * A new realm with the ledger on (not a development realm, so without the payment sandbox), its own host and one
 * member user: for tests that need a second ledger realm.
 */
export async function ledgerRealm(values: { development?: number; parent_code?: string } = {}) {
  const code = `l${crypto.randomUUID().slice(0, 8)}`
  const host = `${code}.localhost`
  const member = `m${code}`
  await env.DB.batch([
    env.DB.prepare('INSERT INTO realm (code, name, ledger_enabled, development, parent_code) VALUES (?, ?, 1, ?, ?)').bind(
      code,
      `Realm ${code}`,
      values.development ?? 0,
      values.parent_code ?? null,
    ),
    env.DB.prepare('INSERT INTO realm_host (host, realm) VALUES (?, ?)').bind(host, code),
    env.DB.prepare('INSERT INTO user (realm, nick, name, origin_realm) VALUES (?, ?, ?, ?)').bind(code, member, 'Member', code),
  ])
  return { code, host, member }
}
