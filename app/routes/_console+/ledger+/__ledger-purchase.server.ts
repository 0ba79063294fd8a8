import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import type { RealmApi } from '~/server/api.server'

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

export interface IntentStatus {
  id: string
  provider: string
  status: 'pending' | 'succeeded' | 'failed'
  package_id: string
  points: number
  amount: number
  currency: string
  transaction_id: string | null
  failure: string
}

export const loadShop = (api: RealmApi) => api.get<Shop>('ledger/package/shop')
