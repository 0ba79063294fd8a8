import { useFetcher } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CheckboxField, NumberField, SelectField, TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import type { ErrorItem } from '#shared/schemas/error'
import { EXTRA_FIELD_ENTITIES, ExtraFieldCreate, ExtraFieldUpdate, type ExtraField } from '#shared/schemas/extra-field'

const EMPTY = { entity: 'user', key: '', label: '', required: false, active: true, external_preview: false, position: 0 }

/** Create or edit one extra field; entity and key are fixed once created. */
export function ExtraFieldForm({ field, onDone }: { field: ExtraField | null; onDone: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<{ ok: boolean; errors: ErrorItem[] }>({ key: 'extra-field-form' })
  const initial = field
    ? {
        entity: field.entity,
        key: field.key,
        label: field.label,
        required: field.required,
        active: field.active,
        external_preview: field.external_preview,
        position: field.position,
      }
    : EMPTY
  const [values, setValues] = useState<typeof EMPTY>(initial)
  const form = useLiveValidation(field ? ExtraFieldUpdate : ExtraFieldCreate, field ? changedValues(initial, values) : values, fetcher.data?.errors)
  const set =
    <K extends keyof typeof EMPTY>(k: K) =>
    (v: (typeof EMPTY)[K]) =>
      setValues((x) => ({ ...x, [k]: v }))
  const common = (k: keyof typeof EMPTY) => ({ label: t(`resources.extra_field.fields.${k}`), error: form.errorOf(k), onBlur: () => form.touch(k) })
  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok) {
      toast.push({ kind: 'success', message: 'resources.extra_field.saved' })
      onDone()
    } else toast.pushErrors(fetcher.data.errors)
  }, [fetcher.state, fetcher.data, toast, onDone])
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!form.attempt()) return
        const body = field ? { intent: 'update', id: field.id, values: changedValues(initial, values) } : { intent: 'create', values }
        fetcher.submit(jsonBody(body), { method: 'post', encType: 'application/json' })
      }}
    >
      <SelectField
        {...common('entity')}
        value={values.entity}
        onChange={set('entity')}
        disabled={field !== null}
        options={EXTRA_FIELD_ENTITIES.map((e) => ({ value: e, label: t(`resources.extra_field.entity.${e}`) }))}
      />
      <TextField
        {...common('key')}
        value={values.key}
        onChange={set('key')}
        disabled={field !== null}
        hint={t('validation.extra_key')}
        required
        autoComplete="off"
      />
      <TextField {...common('label')} value={values.label} onChange={set('label')} required />
      <NumberField {...common('position')} value={values.position} onChange={set('position')} min={0} max={1000} />
      <CheckboxField {...common('required')} value={values.required} onChange={set('required')} hint={t('resources.extra_field.hints.required')} />
      <CheckboxField {...common('active')} value={values.active} onChange={set('active')} hint={t('resources.extra_field.hints.active')} />
      <CheckboxField
        {...common('external_preview')}
        value={values.external_preview}
        onChange={set('external_preview')}
        hint={t('resources.extra_field.hints.external_preview')}
      />
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onDone}>
          {t('settings.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={fetcher.state !== 'idle'}>
          <Icon name="check" /> {t('resources.extra_field.save')}
        </button>
      </div>
    </form>
  )
}
