import type { RealmApi } from './api.server'

/** The points of the signed-in user's wallet when the realm has the ledger; null when off or unavailable. */
export async function walletBalance(api: RealmApi, realm: { config?: { ledger_enabled?: boolean } | null }, nick: string): Promise<number | null> {
  if (!realm.config?.ledger_enabled) return null
  return api
    .get<{ points: number }>(`ledger/wallet/${encodeURIComponent(nick)}`)
    .then((w) => w.points)
    .catch(() => null)
}
