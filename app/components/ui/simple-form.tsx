import { Form, useActionData, useNavigation } from '@remix-run/react'
import { useMemo, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type * as v from 'valibot'
import { errorText, ruleText } from '~/lib/error-text'
import { formToValues, liveErrors, splitErrors, valueAt, type FieldSpec } from '~/lib/form-fields'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { isoToZoned } from '~/lib/zoned-time'
import type { ErrorItem } from '#shared/schemas/error'
import { Icon } from './icon'

export interface SimpleFormResult {
  errors?: ErrorItem[]
}

/**
 * A plain create/edit form from field specs: a real <form> (works without script), validated live with the API's
 * own schema once a field was touched (all fields after a submit attempt), server errors next to their fields.
 */
export function SimpleForm({
  fields,
  schema,
  initial,
  timeZone,
  submitLabel,
  protect = false,
}: {
  fields: FieldSpec[]
  schema: v.GenericSchema
  initial: Record<string, unknown>
  timeZone: string
  submitLabel: string
  /** Warn before leaving with unsaved changes (seed 000 §2.4 screens). */
  protect?: boolean
}) {
  const { t } = useTranslation()
  const result = useActionData<SimpleFormResult>()
  const navigation = useNavigation()
  const saving = navigation.state === 'submitting'
  const [values, setValues] = useState<Record<string, unknown> | null>(null)
  const [touched, setTouched] = useState<Set<string>>(new Set())
  const [tried, setTried] = useState(false)
  const live = useMemo(() => (values ? liveErrors(schema, values) : {}), [schema, values])
  const server = splitErrors(
    result?.errors ?? [],
    fields.map((f) => f.name),
  )
  const dirty = values !== null && !saving
  const guard = useUnsavedChanges(protect && dirty)

  const read = (form: HTMLFormElement) => formToValues(new FormData(form), fields, timeZone)
  const onChange = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement
    setValues(read(e.currentTarget))
    if (target.name) setTouched((s) => new Set(s).add(target.name))
  }
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const current = read(e.currentTarget)
    setValues(current)
    setTried(true)
    if (Object.keys(liveErrors(schema, current)).length) e.preventDefault()
  }
  const message = (name: string) => {
    const own = (tried || touched.has(name)) && live[name] ? ruleText(t, live[name]) : null
    return own ?? (server.byField[name] ? errorText(t, server.byField[name]) : null)
  }

  return (
    <Form method="post" className="card simple-form" noValidate onChange={onChange} onSubmit={onSubmit}>
      {server.rest.length ? (
        <div className="alert alert-error" role="alert">
          <ul>
            {server.rest.map((e, i) => (
              <li key={i}>{errorText(t, e)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {fields.map((f) => (
        <Field key={f.name} spec={f} initial={valueAt(initial, f.name)} timeZone={timeZone} error={message(f.name)} />
      ))}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {submitLabel}
        </button>
      </div>
      {guard}
    </Form>
  )
}

function Field({ spec, initial, timeZone, error }: { spec: FieldSpec; initial: unknown; timeZone: string; error: string | null }) {
  const { t } = useTranslation()
  const label = spec.literal ? spec.label : t(spec.label)
  const id = `field-${spec.name.replace('.', '-')}`
  const described = [error ? `${id}-error` : '', spec.hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined
  const common = { id, name: spec.name, 'aria-invalid': error ? true : undefined, 'aria-describedby': described, required: spec.required }
  const text = initial === null || initial === undefined ? '' : String(initial)
  let control
  switch (spec.kind) {
    case 'textarea':
      control = <textarea className="input" rows={3} defaultValue={text} {...common} />
      break
    case 'checkbox':
      control = (
        <label className="switch">
          <input type="checkbox" defaultChecked={initial === true} {...common} /> {label}
        </label>
      )
      break
    case 'select':
      control = (
        <select className="input" defaultValue={text} {...common}>
          {spec.nullable ? <option value="">{t('tms.form.none')}</option> : null}
          {spec.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {t(o.label, { defaultValue: o.label })}
            </option>
          ))}
        </select>
      )
      break
    case 'checkboxes':
      control = (
        <fieldset className="option-list" aria-describedby={described}>
          <legend className="visually-hidden">{label}</legend>
          {spec.options?.map((o) => (
            <label key={o.value} className="switch">
              <input type="checkbox" name={spec.name} value={o.value} defaultChecked={Array.isArray(initial) && initial.includes(o.value)} />{' '}
              {t(o.label, { defaultValue: o.label })}
            </label>
          ))}
        </fieldset>
      )
      break
    case 'datetime':
      control = <input className="input" type="datetime-local" defaultValue={isoToZoned(text, timeZone)} {...common} />
      break
    case 'list':
      control = <input className="input" defaultValue={Array.isArray(initial) ? initial.join(', ') : text} {...common} />
      break
    default:
      control = (
        <input
          className="input"
          type={spec.kind === 'number' ? 'number' : spec.kind === 'color' ? 'color' : 'text'}
          step={spec.step}
          min={spec.min}
          max={spec.max}
          defaultValue={text}
          {...common}
        />
      )
  }
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      {spec.kind === 'checkbox' ? null : spec.kind === 'checkboxes' ? <span className="field-label">{label}</span> : <label htmlFor={id}>{label}</label>}
      {control}
      {spec.hint ? (
        <p className="hint" id={`${id}-hint`}>
          {t(spec.hint)}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  )
}
