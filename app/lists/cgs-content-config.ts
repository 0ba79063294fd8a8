import { day } from '~/lib/list-format'
import type { ListSpec } from '~/lib/lists'
import { YES_NO } from '~/lib/entity-screens'
import { CONFIG_TYPES, type ConfigType, type ContentConfig } from '#shared/schemas/lesson/genesis'

/**
 * The realm's content configurations a user sees (`cgs/content_config`): every type (with a type filter), or one
 * type's (`cgs/content_config/{type}`, the type fixed in the API path's query).
 */
export function contentConfigList(type?: ConfigType): ListSpec<ContentConfig> {
  return {
    name: 'cgs_content_config',
    apiPath: type ? `cgs/content_config?type=${type}` : 'cgs/content_config',
    route: type ? 'cgs.content_config.type' : 'cgs.content_config',
    rowId: (r) => r.id,
    columns: [
      { id: 'title', label: 'cgs.field.title', sorting: true, ellipsis: true, tooltip: true },
      ...(type
        ? []
        : [
            {
              id: 'type' as const,
              label: 'cgs.field.type',
              sorting: true,
              width: 170,
              format: (v: unknown, _r: ContentConfig, t: (k: string) => string) => t(`genesis.kind.${String(v)}`),
            },
          ]),
      { id: 'is_public', label: 'cgs.field.is_public', width: 100, align: 'center' },
      { id: 'default_selected', label: 'cgs.field.default_selected', width: 120, align: 'center' },
      { id: 'updated_at', label: 'resources.tms.fields.updated_at', sorting: true, width: 150, format: day, time: true },
    ],
    search: [
      { field: 'title', type: 'text', label: 'cgs.field.title' },
      ...(type
        ? []
        : [{ field: 'type', type: 'select' as const, label: 'cgs.field.type', options: CONFIG_TYPES.map((x) => ({ value: x, label: `genesis.kind.${x}` })) }]),
      { field: 'is_public', type: 'select', label: 'cgs.field.is_public', options: YES_NO },
    ],
  }
}

export default contentConfigList()
