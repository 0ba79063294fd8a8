import { useFetcher } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { KitForm, SpecFields } from '~/components/form/kit'
import { useToast } from '~/components/ui/toast'
import type { FieldSpec } from '~/lib/form-fields'
import { EXTRA_FIELD_ENTITIES, ExtraFieldCreate, ExtraFieldUpdate, type ExtraField } from '#shared/schemas/extra-field'

const label = (k: string) => `resources.extra_field.fields.${k}`

/** The extra field form's fields: entity and key only when creating (they are fixed once created). */
export function extraFieldFields(mode: 'create' | 'update'): FieldSpec[] {
  const fixed: FieldSpec[] = [
    {
      name: 'entity',
      label: label('entity'),
      kind: 'select',
      options: EXTRA_FIELD_ENTITIES.map((e) => ({ value: e, label: `resources.extra_field.entity.${e}` })),
    },
    { name: 'key', label: label('key'), kind: 'text', hint: 'validation.extra_key', required: true },
  ]
  return [
    ...(mode === 'create' ? fixed : []),
    { name: 'label', label: label('label'), kind: 'text', required: true },
    { name: 'position', label: label('position'), kind: 'number', step: '1' },
    { name: 'required', label: label('required'), kind: 'checkbox', hint: 'resources.extra_field.hints.required' },
    { name: 'active', label: label('active'), kind: 'checkbox', hint: 'resources.extra_field.hints.active' },
    { name: 'external_preview', label: label('external_preview'), kind: 'checkbox', hint: 'resources.extra_field.hints.external_preview' },
  ]
}

/** Create or edit one extra field (a dialog of the list, posting to the list's action with `intent`). */
export function ExtraFieldForm({ field, timeZone, onDone }: { field: ExtraField | null; timeZone: string; onDone: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher({ key: 'extra-field-form' })
  const mode = field ? 'update' : 'create'
  const fields = extraFieldFields(mode)
  return (
    <KitForm
      schema={field ? ExtraFieldUpdate : ExtraFieldCreate}
      fields={fields}
      defaultValue={field ?? { entity: 'user', active: true, position: 0 }}
      lastResult={fetcher.data}
      fetcher={fetcher}
      onSaved={() => {
        toast.push({ kind: 'success', message: 'resources.extra_field.saved' })
        onDone()
      }}
      timeZone={timeZone}
      className="dialog-form"
      submitLabel={t('resources.extra_field.save')}
      actions={
        <button type="button" className="btn" onClick={onDone}>
          {t('settings.cancel')}
        </button>
      }
    >
      <input type="hidden" name="intent" value={mode} />
      {field ? <input type="hidden" name="id" value={field.id} /> : null}
      {field ? (
        <p className="hint">
          {t(`resources.extra_field.entity.${field.entity}`)} · <code>{field.key}</code>
        </p>
      ) : null}
      <SpecFields fields={fields} timeZone={timeZone} />
    </KitForm>
  )
}
