import type { ListSpec } from '~/lib/lists'
import { EXTRA_FIELD_ENTITIES, type ExtraField } from '#shared/schemas/extra-field'

const yes = (v: unknown, _r: unknown, t: (k: string) => string) => t(v ? 'form.yes' : 'form.no')

/** Extra fields per entity (`realm/extra_field`). */
export const extraFieldList: ListSpec<ExtraField> = {
  name: 'extra_field',
  apiPath: 'mas/extra_field',
  route: 'realm.extra_field',
  rowId: (r) => r.id,
  columns: [
    {
      id: 'entity',
      label: 'resources.extra_field.fields.entity',
      sorting: true,
      width: 140,
      format: (v, _r, t) => t(`resources.extra_field.entity.${String(v)}`),
    },
    { id: 'label', label: 'resources.extra_field.fields.label', sorting: true },
    { id: 'key', label: 'resources.extra_field.fields.key', sorting: true },
    { id: 'required', label: 'resources.extra_field.fields.required', width: 110, format: yes },
    { id: 'active', label: 'resources.extra_field.fields.active', width: 110, format: yes },
    { id: 'external_preview', label: 'resources.extra_field.fields.external_preview', width: 150, format: yes },
    { id: 'position', label: 'resources.extra_field.fields.position', sorting: true, align: 'right', width: 100 },
  ],
  search: [
    {
      field: 'entity',
      type: 'select',
      label: 'resources.extra_field.fields.entity',
      options: EXTRA_FIELD_ENTITIES.map((e) => ({ value: e, label: `resources.extra_field.entity.${e}` })),
    },
    {
      field: 'active',
      type: 'select',
      label: 'resources.extra_field.fields.active',
      options: [
        { value: 'true', label: 'form.yes' },
        { value: 'false', label: 'form.no' },
      ],
    },
  ],
}

export default extraFieldList
