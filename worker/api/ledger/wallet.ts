import { Hono } from 'hono'
import { accountBalance } from '../../db/ledger-catalog'
import { realmName, realmNickSuffix } from '../../db/realms'
import { findUserByEitherNick } from '../../db/users'
import * as v from 'valibot'
import { statementEntity } from '#shared/schemas/ledger-entity'
import { Nick } from '#shared/schemas/ledger'
import { withNickSuffix } from '../device'
import { accountId, realmWallet, userWallet } from '../../db/ledger'
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
async function walletOf(c: Ctx, auth: Auth): Promise<{ ref: ReturnType<typeof userWallet | typeof realmWallet>; name: string }> {
  const id = pathParam(c, 'id')
  const { from_realm } = readQuery(c, v.object({ from_realm: Flag }))
  const notFound = () => apiError(404, 'not_found', 'ledger.error.wallet_not_found', 'id', id)
  const db = c.env.DB
  if (from_realm) {
    const allowed = auth.permissions.has('ledger_wallet_get_others') || auth.permissions.has('ledger_balance_list')
    if (!allowed || !(await inRealmTree(db, auth, id))) throw notFound()
    return { ref: realmWallet(id), name: (await realmName(db, id)) ?? id }
  }
  const typed = parse(Nick, id)
  // The caller's own full nick (the top bar of every console page asks so) needs no read of the realm's suffix.
  if (typed === auth.nick) return { ref: userWallet(auth.realm, auth.nick), name: auth.name }
  const suffix = await realmNickSuffix(db, auth.realm)
  if (withNickSuffix(typed, suffix) === auth.nick) return { ref: userWallet(auth.realm, auth.nick), name: auth.name }
  if (!auth.permissions.has('ledger_wallet_get_others')) throw notFound()
  const user = await findUserByEitherNick(db, auth.realm, typed, withNickSuffix(typed, suffix))
  if (!user) throw notFound()
  return { ref: userWallet(auth.realm, user.nick), name: user.name }
}

export const wallet = new Hono<AppEnv>()
  /** GET ledger/wallet/{nick or realm}: `points` is the balance (the top bar reads it). */
  .get(
    '/:id',
    guarded(ledgerAccess(), async (c, auth) => {
      const { ref, name } = await walletOf(c, auth)
      // A console page's own wallet comes read with the page's host lookup (worker/index.ts).
      const pre = c.get('walletPrefetch')
      const row = pre?.id === accountId(ref) ? (pre.balance === null ? null : pre) : await accountBalance(c.env.DB, accountId(ref))
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
  .get(
    '/:id/statement',
    guarded(ledgerAccess(), async (c, auth) => {
      const { ref } = await walletOf(c, auth)
      const q = readQuery(c, Period)
      return listAnswer(c, statementEntity, { where: 'account_id = ?', params: [accountId(ref)] }, and(...periodScope('created_at', q)))
    }),
  )
