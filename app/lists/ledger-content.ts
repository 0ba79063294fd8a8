import { when } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import type { LedgerContent } from '#shared/schemas/ledger-entity'
import { contentKeyCell, pointsCell } from '~/lib/ledger-cells'

/** The price list (`ledger/content`): what consumes credits in the realm. */
export const ledgerContentList: ListSpec<LedgerContent> = {
  name: 'ledger_content',
  apiPath: 'ledger/content',
  route: 'ledger.content.list',
  rowId: (r) => r.key,
  columns: [
    { id: 'key', label: 'resources.ledger_content.fields.key', sorting: true, width: 260, render: (r, t) => contentKeyCell(r.key, t) },
    { id: 'name', label: 'resources.ledger_content.fields.name', sorting: true, ellipsis: true, tooltip: true },
    {
      id: 'points',
      label: 'resources.ledger_content.fields.points',
      sorting: true,
      align: 'right',
      width: 120,
      render: (r, t) => pointsCell(r.points, t('ledger.locale')),
    },
    {
      id: 'is_system',
      label: 'resources.ledger_content.fields.is_system',
      sorting: true,
      width: 120,
      info: 'resources.ledger_content.fields.is_system.info',
      format: (v, _r, t) => t(v ? 'ledger.yes' : 'ledger.no'),
    },
    {
      id: 'updated_at',
      label: 'resources.ledger_content.fields.updated_at',
      sorting: true,
      width: 170,
      format: when,
      time: true,
    },
    { id: 'updated_by', label: 'resources.ledger_content.fields.updated_by', width: 160 },
  ],
  search: [
    { field: 'key', type: 'chip', label: 'resources.ledger_content.search.keys', chipMax: 64 },
    { field: 'system_only', type: 'select', label: 'resources.ledger_content.search.system_only', options: [{ label: 'ledger.yes', value: 'true' }] },
    {
      field: 'is_system',
      type: 'select',
      label: 'resources.ledger_content.fields.is_system',
      options: [
        { label: 'ledger.yes', value: 'true' },
        { label: 'ledger.no', value: 'false' },
      ],
    },
  ],
}

export default ledgerContentList
