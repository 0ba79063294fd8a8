import { apiData, type RealmApi } from './api.server'

/** The points of the signed-in user's wallet when the realm has the ledger; null when off or unavailable. */
export async function walletBalance(api: RealmApi, realm: { config?: { ledger_enabled?: boolean } | null }, nick: string): Promise<number | null> {
  if (!realm.config?.ledger_enabled) return null
  return apiData(api.ledger.wallet[':id'].$get({ param: { id: nick } }))
    .then((w) => w.points)
    .catch(() => null)
}
