import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { LedgerAccount } from '#shared/schemas/ledger-entity'
import { pointsCell } from '~/lib/ledger-cells'

/** Wallets of the realm with their balances (`ledger/transaction/account`), the balance screen's table. */
export const ledgerAccountList: ListSpec<LedgerAccount> = {
  name: 'ledger_account',
  apiPath: 'ledger/transaction/account',
  route: 'ledger.balance',
  rowId: (r) => r.id,
  columns: [
    { id: 'kind', label: 'resources.ledger_account.fields.kind', sorting: true, width: 140, format: (v, _r, t) => t(`ledger.account.${String(v)}`) },
    { id: 'owner', label: 'resources.ledger_account.fields.owner', sorting: true, ellipsis: true, tooltip: true },
    { id: 'name', label: 'resources.ledger_account.fields.name', sorting: true, ellipsis: true },
    {
      id: 'balance',
      label: 'resources.ledger_account.fields.balance',
      sorting: true,
      align: 'right',
      width: 140,
      info: 'resources.ledger_account.fields.balance.info',
      render: (r, t) => pointsCell(r.balance, t('ledger.locale')),
    },
    {
      id: 'updated_at',
      label: 'resources.ledger_account.fields.updated_at',
      sorting: true,
      width: 170,
      format: when,
      time: true,
    },
  ],
  search: [
    {
      field: 'kind',
      type: 'select',
      label: 'resources.ledger_account.fields.kind',
      options: ['user', 'realm', 'issuance', 'consumption'].map((k) => ({ label: `ledger.account.${k}`, value: k })),
    },
    { field: 'owner', type: 'chip', label: 'resources.ledger_account.search.owners', chipMax: 120 },
  ],
}

export default ledgerAccountList
