import { day } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import { ASSET_PROVIDERS, ASSET_TYPES, type Asset } from '#shared/schemas/asset'

/** Sizes in B, kB, MB with one decimal. */
export function fileSize(bytes: unknown): string {
  if (typeof bytes !== 'number') return ''
  if (bytes < 1000) return `${bytes} B`
  return bytes < 1_000_000 ? `${(bytes / 1000).toFixed(1)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`
}

/** The realm's assets (`asset`). */
export const assetList: ListSpec<Asset> = {
  name: 'asset',
  apiPath: 'asset',
  route: 'asset.list',
  rowId: (r) => r.id,
  columns: [
    { id: 'name', label: 'resources.asset.fields.name', sorting: true, ellipsis: true, tooltip: true },
    { id: 'type', label: 'resources.asset.fields.type', sorting: true, width: 110, format: (v, _r, t) => t(`resources.asset.type.${String(v)}`) },
    { id: 'provider', label: 'resources.asset.fields.provider', sorting: true, width: 120, format: (v, _r, t) => t(`resources.asset.provider.${String(v)}`) },
    { id: 'infra', label: 'resources.asset.fields.infra', width: 110, format: (v, _r, t) => t(`resources.asset.infra.${String(v)}`) },
    { id: 'url', label: 'resources.asset.fields.url', ellipsis: true, tooltip: true },
    { id: 'size', label: 'resources.asset.fields.size', sorting: true, align: 'right', width: 110, format: fileSize },
    { id: 'created_at', label: 'resources.asset.fields.created_at', sorting: true, width: 120, format: day, time: true },
  ],
  search: [
    { field: 'name', type: 'text', label: 'resources.asset.fields.name' },
    {
      field: 'type',
      type: 'select',
      label: 'resources.asset.fields.type',
      options: ASSET_TYPES.map((x) => ({ value: x, label: `resources.asset.type.${x}` })),
    },
    {
      field: 'provider',
      type: 'select',
      label: 'resources.asset.fields.provider',
      options: ASSET_PROVIDERS.map((x) => ({ value: x, label: `resources.asset.provider.${x}` })),
    },
    { field: 'created_at', type: 'date', label: 'resources.asset.fields.created_at' },
  ],
}

export default assetList
