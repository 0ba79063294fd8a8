import { defineEntity } from './entity'
import type { Currency } from './ledger'

/** Declared once: the API lists and the console tables of the ledger read these descriptors. */

export type LedgerPackage = {
  id: string
  realm: string
  name: string
  description: string
  cost: number
  currency: Currency
  points: number
  enabled: boolean
  recommended: boolean
  created_at: string
  updated_at: string
  updated_by: string
  deleted_at: string | null
}

export const packageEntity = defineEntity<LedgerPackage>({
  name: 'ledger_package',
  table: 'ledger_package',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text', list: true },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    description: { type: 'text', search: true, list: true },
    cost: { type: 'real', sort: true, list: true },
    currency: { type: 'text', sort: true, list: true, filter: 'in' },
    points: { type: 'int', sort: true, list: true },
    enabled: { type: 'bool', sort: true, list: true, filter: 'eq' },
    recommended: { type: 'bool', sort: true, list: true, filter: 'eq' },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
    deleted_at: { type: 'text', sort: true, list: true, nullable: true },
  },
  defaultOrder: 'cost',
})

export type LedgerContent = {
  realm: string
  key: string
  name: string
  description: string
  points: number
  is_system: boolean
  updated_at: string
  updated_by: string
}

export const contentEntity = defineEntity<LedgerContent>({
  name: 'ledger_content',
  table: 'ledger_content',
  key: 'key',
  realmColumn: 'realm',
  fields: {
    realm: { type: 'text' },
    key: { type: 'text', search: true, sort: true, list: true, filter: 'in' },
    name: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    description: { type: 'text', search: true, list: true },
    points: { type: 'int', sort: true, list: true },
    is_system: { type: 'bool', sort: true, list: true, filter: 'eq' },
    updated_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_by: { type: 'text', list: true, filter: 'eq' },
  },
  defaultOrder: 'key',
})

export type AccountKind = 'user' | 'realm' | 'issuance' | 'consumption'

export type LedgerAccount = {
  id: string
  realm: string
  kind: AccountKind
  owner: string
  name: string
  balance: number
  created_at: string
  updated_at: string
}

/** Accounts with their owner's name (view ledger_account_view): the balance screen's wallets. */
export const accountEntity = defineEntity<LedgerAccount>({
  name: 'ledger_account',
  table: 'ledger_account_view',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text', list: true },
    kind: { type: 'text', sort: true, list: true, filter: 'in' },
    owner: { type: 'text', search: true, sort: true, list: true, filter: 'in' },
    name: { type: 'text', search: true, sort: true, list: true },
    balance: { type: 'int', sort: true, list: true },
    created_at: { type: 'text', sort: true, list: true },
    updated_at: { type: 'text', sort: true, list: true, filter: 'date' },
  },
  defaultOrder: '-balance',
})

export type TransactionType = 'issuance' | 'purchase' | 'transfer' | 'debit' | 'sponsor' | 'reversal'
export const TRANSACTION_TYPES: readonly TransactionType[] = ['issuance', 'purchase', 'transfer', 'debit', 'sponsor', 'reversal']

export type LedgerMovement = {
  id: string
  realm: string
  type: TransactionType
  actor: string
  description: string
  billing_key: string
  points: number
  reverses: string | null
  reversed_by: string | null
  /** `<kind>:<owner>` of the debited and the credited accounts. */
  sources: string[]
  targets: string[]
  created_at: string
}

/** Transactions (view ledger_movement): GET ledger/transaction/transfer. */
export const movementEntity = defineEntity<LedgerMovement>({
  name: 'ledger_movement',
  table: 'ledger_movement',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true, filter: 'eq' },
    realm: { type: 'text', list: true },
    type: { type: 'text', sort: true, list: true, filter: 'in' },
    actor: { type: 'text', search: true, sort: true, list: true, filter: 'eq' },
    description: { type: 'text', search: true, list: true },
    billing_key: { type: 'text', search: true, list: true, filter: 'eq' },
    points: { type: 'int', sort: true, list: true },
    reverses: { type: 'text', list: true },
    reversed_by: { type: 'text', list: true },
    sources: { type: 'json', list: true },
    targets: { type: 'json', list: true },
    created_at: { type: 'text', sort: true, list: true },
  },
  defaultOrder: '-created_at',
})

export type StatementEntry = {
  id: number
  account_id: string
  realm: string
  transaction_id: string
  amount: number
  balance_after: number
  type: TransactionType
  actor: string
  description: string
  billing_key: string
  reverses: string | null
  reversed_by: string | null
  counterparts: string[]
  created_at: string
}

/** One account's entries with the running balance (view ledger_statement). */
export const statementEntity = defineEntity<StatementEntry>({
  name: 'ledger_statement',
  table: 'ledger_statement',
  key: 'id',
  fields: {
    id: { type: 'int', sort: true, list: true },
    account_id: { type: 'text', list: true },
    realm: { type: 'text', list: true },
    transaction_id: { type: 'text', list: true },
    amount: { type: 'int', sort: true, list: true },
    balance_after: { type: 'int', list: true },
    type: { type: 'text', sort: true, list: true, filter: 'in' },
    actor: { type: 'text', search: true, list: true },
    description: { type: 'text', search: true, list: true },
    billing_key: { type: 'text', search: true, list: true },
    reverses: { type: 'text', list: true },
    reversed_by: { type: 'text', list: true },
    counterparts: { type: 'json', list: true },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
  },
  defaultOrder: '-id',
})
