import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import { apiData, type RealmApi } from '~/server/api.server'

export interface Provider {
  code: string
  kind: 'card' | 'regional'
  sandbox: boolean
  /** False: not configured for this realm; the screen says so plainly. */
  available: boolean
}

export interface Shop {
  packages: LedgerPackage[]
  providers: Provider[]
}

export const loadShop = (api: RealmApi): Promise<Shop> => apiData(api.ledger.package.shop.$get())
