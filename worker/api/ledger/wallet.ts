import { Hono } from 'hono'
import * as v from 'valibot'
import { statementEntity } from '#shared/schemas/ledger-entity'
import { Nick } from '#shared/schemas/ledger'
import { withNickSuffix } from '../device'
import { accountId, realmWallet, userWallet, type AccountRef } from '../../db/ledger'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { type AppEnv, type Ctx, parse, pathParam, readQuery } from '../context'
import { and, Flag, inRealmTree, ledgerAccess, listAnswer, Period, periodScope } from './common'

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
