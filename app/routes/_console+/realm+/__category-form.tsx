import { useFetcher } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { NumberField, SelectField, TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { CategoryName } from '#shared/schemas/category'
import type { ErrorItem } from '#shared/schemas/error'

const Form = v.object({
  name: CategoryName,
  parent: v.nullable(v.string()),
  priority: v.pipe(
    v.number('validation.number'),
    v.integer('validation.integer'),
    v.minValue(0, 'validation.min_value'),
    v.maxValue(10_000, 'validation.max_value'),
  ),
})
type Values = { name: string; parent: string | null; priority: number }

/** A room category: name, parent (any category but itself and its subtree) and priority among its siblings. */
export function CategoryForm({ initial, parents, mode }: { initial: Values; parents: { id: string; label: string }[]; mode: 'create' | 'edit' }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'category-form' })
  const [values, setValues] = useState<Values>(initial)
  const form = useLiveValidation(Form, values, fetcher.data?.errors)
  const saving = fetcher.state !== 'idle'
  const guard = useUnsavedChanges(!saving && Object.keys(changedValues(initial, values)).length > 0)
  const other = (fetcher.data?.errors ?? []).filter((e) => !['name', 'parent', 'priority'].includes(e.field))
  return (
    <form
      className="card narrow-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (form.attempt()) fetcher.submit(jsonBody(values), { method: 'post', encType: 'application/json' })
      }}
    >
      {other.length ? (
        <p className="alert alert-error" role="alert">
          {other.map((e) => t(e.message, { defaultValue: t(`errors.${e.cause}`) })).join(' ')}
        </p>
      ) : null}
      <TextField
        label={t('resources.category.fields.name')}
        value={values.name}
        onChange={(name) => setValues((x) => ({ ...x, name }))}
        onBlur={() => form.touch('name')}
        error={form.errorOf('name')}
        required
        maxLength={80}
      />
      <SelectField
        label={t('resources.category.fields.parent')}
        value={values.parent ?? ''}
        onChange={(p) => setValues((x) => ({ ...x, parent: p || null }))}
        onBlur={() => form.touch('parent')}
        error={form.errorOf('parent')}
        hint={mode === 'edit' ? t('resources.category.hints.parent') : undefined}
        options={[{ value: '', label: t('resources.category.top_level') }, ...parents.map((p) => ({ value: p.id, label: p.label }))]}
      />
      <NumberField
        label={t('resources.category.fields.priority')}
        value={values.priority}
        onChange={(priority) => setValues((x) => ({ ...x, priority }))}
        onBlur={() => form.touch('priority')}
        error={form.errorOf('priority')}
        hint={t('resources.category.hints.priority')}
        min={0}
      />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('resources.category.save')}
        </button>
      </div>
      {guard}
    </form>
  )
}
