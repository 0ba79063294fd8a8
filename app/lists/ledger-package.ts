import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import { CURRENCIES } from '#shared/schemas/ledger'
import { pointsCell } from '~/lib/ledger-cells'
import { money } from '~/lib/format'

// `t('ledger.locale')` is the interface language's locale code, so cells format numbers as the reader expects.

/** Credit packages (`ledger/package`). Money with 2 decimals in the package's currency; points abbreviated. */
export const ledgerPackageList: ListSpec<LedgerPackage> = {
  name: 'ledger_package',
  apiPath: 'ledger/package',
  route: 'ledger.package.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.ledger_package.fields.name', sorting: true, ellipsis: true, tooltip: true },
    {
      id: 'cost',
      label: 'resources.ledger_package.fields.cost',
      sorting: true,
      align: 'right',
      width: 150,
      format: (_v, r) => r.cost.toFixed(2),
      render: (r, t) => money(r.cost, r.currency, t('ledger.locale')),
    },
    { id: 'currency', label: 'resources.ledger_package.fields.currency', sorting: true, width: 100 },
    {
      id: 'points',
      label: 'resources.ledger_package.fields.points',
      sorting: true,
      align: 'right',
      width: 120,
      render: (r, t) => pointsCell(r.points, t('ledger.locale')),
    },
    { id: 'enabled', label: 'resources.ledger_package.fields.enabled', sorting: true, width: 110, format: (v, _r, t) => t(v ? 'ledger.yes' : 'ledger.no') },
    {
      id: 'recommended',
      label: 'resources.ledger_package.fields.recommended',
      sorting: true,
      width: 130,
      format: (v, _r, t) => t(v ? 'ledger.yes' : 'ledger.no'),
    },
    {
      id: 'updated_at',
      label: 'resources.ledger_package.fields.updated_at',
      sorting: true,
      width: 170,
      format: when,
      time: true,
    },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.ledger_package.fields.name' },
    { field: 'currency', type: 'select', label: 'resources.ledger_package.fields.currency', options: CURRENCIES.map((c) => ({ label: c, value: c })) },
    {
      field: 'enabled',
      type: 'select',
      label: 'resources.ledger_package.fields.enabled',
      options: [
        { label: 'ledger.yes', value: 'true' },
        { label: 'ledger.no', value: 'false' },
      ],
    },
    { field: 'deleted_only', type: 'select', label: 'resources.ledger_package.search.deleted_only', options: [{ label: 'ledger.yes', value: 'true' }] },
  ],
}

export default ledgerPackageList
