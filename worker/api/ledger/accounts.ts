import { Hono } from 'hono'
import * as v from 'valibot'
import { accountEntity, movementEntity, statementEntity } from '#shared/schemas/ledger-entity'
import { Nick } from '#shared/schemas/ledger'
import { withNickSuffix } from '../device'
import { accountId, realmWallet, userWallet, type AccountRef } from '../../db/ledger'
import type { Auth } from '../../db/sessions'
import type { Scope } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { type AppEnv, type Ctx, parse, pathParam, readQuery } from '../context'
import { and, Flag, inRealmTree, ledgerAccess, listAnswer, Period, periodScope } from './common'

export const accounts = new Hono<AppEnv>()

/**
 * GET ledger/transaction/transfer: the realm's movements (type, start_at, end_at, targets, limit, offset), those
 * posted here and those that reached the realm's accounts from another realm.
 */
accounts.get(
  '/transfer',
  guarded(ledgerAccess('ledger_transfer_list'), async (c, auth) => {
    const q = readQuery(c, v.object({ ...Period.entries, targets: v.optional(v.pipe(v.string(), v.maxLength(2000))) }))
    const scope = { where: 'realm = ? OR id IN (SELECT transaction_id FROM ledger_entry WHERE realm = ?)', params: [auth.realm, auth.realm] }
    let targets: Scope | undefined
    if (q.targets) {
      const suffix =
        (await c.env.DB.prepare('SELECT nick_suffix FROM realm WHERE code = ?').bind(auth.realm).first<{ nick_suffix: string }>())?.nick_suffix ?? ''
      const nicks = q.targets
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean)
        .flatMap((t) => [t, withNickSuffix(t, suffix)])
      targets = {
        where: `id IN (SELECT e.transaction_id FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE a.realm = ? AND a.kind = 'user' AND a.owner IN (SELECT value FROM json_each(?)))`,
        params: [auth.realm, JSON.stringify(nicks)],
      }
    }
    return listAnswer(c, movementEntity, scope, and(...periodScope('created_at', q), targets))
  }),
)

/** The realm a balance query addresses: the caller's, or `?realm=` when it lies in the caller's tree. */
async function balanceRealm(c: Ctx, auth: Auth): Promise<string> {
  const realm = c.req.query('realm') || auth.realm
  if (realm !== auth.realm && !(await inRealmTree(c.env.DB, auth, realm)))
    throw apiError(403, 'forbidden', `Realm ${realm} is outside your realms.`, 'realm', realm)
  return realm
}

/** GET ledger/transaction/account: the realm's accounts with their balances (kind, owner, like, order, paging). */
accounts.get(
  '/account',
  guarded(ledgerAccess('ledger_balance_list'), async (c, auth) => listAnswer(c, accountEntity, { where: 'realm = ?', params: [await balanceRealm(c, auth)] })),
)

/**
 * GET ledger/transaction/account/check: the ledger's invariants for the realm — every transaction touching it sums
 * to zero, every account's balance equals the sum of its entries, no wallet is below zero. `ok` when all hold.
 */
accounts.get(
  '/account/check',
  guarded(ledgerAccess('ledger_balance_list'), async (c, auth) => {
    const realm = await balanceRealm(c, auth)
    const db = c.env.DB
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
    const ok = a.mismatched === 0 && a.negative === 0 && t.unbalanced === 0 && t.entries_sum === 0
    return c.json({ realm, ok, ...a, ...t, problems: bad.results })
  }),
)

/**
 * The account of GET ledger/wallet/{nick or realm}: the caller's own wallet for anyone; another user's with
 * ledger_wallet_get_others; a realm's (`from_realm`) in the caller's tree with ledger_wallet_get_others or
 * ledger_balance_list. A wallet the caller may not see answers 404, as if it did not exist.
 */
async function walletOf(c: Ctx, auth: Auth): Promise<{ ref: AccountRef; name: string }> {
  const id = pathParam(c, 'id')
  const { from_realm } = readQuery(c, v.object({ from_realm: Flag }))
  const notFound = () => apiError(404, 'not_found', 'ledger.error.wallet_not_found', 'id', id)
  const db = c.env.DB
  if (from_realm) {
    const allowed = auth.permissions.has('ledger_wallet_get_others') || auth.permissions.has('ledger_balance_list')
    if (!allowed || !(await inRealmTree(db, auth, id))) throw notFound()
    const row = await db.prepare('SELECT name FROM realm WHERE code = ?').bind(id).first<{ name: string }>()
    return { ref: realmWallet(id), name: row?.name ?? id }
  }
  const typed = parse(Nick, id)
  const suffix = (await db.prepare('SELECT nick_suffix FROM realm WHERE code = ?').bind(auth.realm).first<{ nick_suffix: string }>())?.nick_suffix ?? ''
  const nick = typed === auth.nick || withNickSuffix(typed, suffix) === auth.nick ? auth.nick : null
  if (nick) return { ref: userWallet(auth.realm, nick), name: auth.name }
  if (!auth.permissions.has('ledger_wallet_get_others')) throw notFound()
  const user = await db
    .prepare('SELECT nick, name FROM user WHERE realm = ? AND nick IN (?, ?) ORDER BY nick = ? DESC LIMIT 1')
    .bind(auth.realm, typed, withNickSuffix(typed, suffix), typed)
    .first<{ nick: string; name: string }>()
  if (!user) throw notFound()
  return { ref: userWallet(auth.realm, user.nick), name: user.name }
}

export const wallet = new Hono<AppEnv>()

/** GET ledger/wallet/{nick or realm}: `points` is the balance (the top bar reads it). */
wallet.get(
  '/:id',
  guarded(ledgerAccess(), async (c, auth) => {
    const { ref, name } = await walletOf(c, auth)
    const row = await c.env.DB.prepare('SELECT balance, updated_at FROM ledger_account WHERE id = ?')
      .bind(accountId(ref))
      .first<{ balance: number; updated_at: string }>()
    return c.json({
      id: accountId(ref),
      kind: ref.kind,
      owner: ref.owner,
      realm: ref.realm,
      name,
      points: row?.balance ?? 0,
      updated_at: row?.updated_at ?? null,
    })
  }),
)

/** GET ledger/wallet/{nick or realm}/statement: the wallet's entries, newest first, with the balance after each. */
wallet.get(
  '/:id/statement',
  guarded(ledgerAccess(), async (c, auth) => {
    const { ref } = await walletOf(c, auth)
    const q = readQuery(c, Period)
    return listAnswer(c, statementEntity, { where: 'account_id = ?', params: [accountId(ref)] }, and(...periodScope('created_at', q)))
  }),
)
