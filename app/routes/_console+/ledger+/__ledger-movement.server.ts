import type { ListPage } from '#shared/schemas/common'
import type { SessionUser } from '~/server/auth.server'
import type { RealmApi } from '~/server/api.server'
import type { Wallet } from './__ledger-movement-ui'

/**
 * Where the caller may pay from: their own wallet, and with ledger_transfer_cross_realm the wallets of their realm
 * and of the realms they administer (when they may list them). A realm wallet whose balance the caller may not read is offered with an unknown balance (NaN).
 */
export async function payingWallets(api: RealmApi, user: SessionUser): Promise<Wallet[]> {
  const own = await api.get<Wallet>(`ledger/wallet/${encodeURIComponent(user.nick)}`)
  if (!user.permissions.ledger_transfer_cross_realm) return [own]
  const codes = new Set([user.realm])
  if (user.permissions.mas_realm_list) {
    const realms = await api.get<ListPage<{ code: string }>>('mas/realm', { limit: 1000 }).catch(() => null)
    for (const r of realms?.items ?? []) codes.add(r.code)
  }
  const realms = await Promise.all(
    [...codes].map((code) =>
      api
        .get<Wallet>(`ledger/wallet/${encodeURIComponent(code)}`, { from_realm: 'true' })
        .catch(() => ({ owner: code, kind: 'realm' as const, name: code, points: Number.NaN })),
    ),
  )
  return [own, ...realms]
}
