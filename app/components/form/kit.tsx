import {
  FormProvider,
  getFormProps,
  useField,
  useForm,
  useFormMetadata,
  type FieldName,
  type FormMetadata,
  type Submission,
  type SubmissionResult,
} from '@conform-to/react'
import { Form, type FetcherWithComponents } from '@remix-run/react'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type * as v from 'valibot'
import { Icon, type IconName } from '~/components/ui/icon'
import { useToast } from '~/components/ui/toast'
import { errorText } from '~/lib/error-text'
import { valueAt, type FieldSpec } from '~/lib/form-fields'
import { LOCALE_FIELD, ZONE_FIELD, dateTimePattern, decodeError, parseForm, readNumber, showDate, showDateTime } from '~/lib/form-kit'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import { DatePicker } from './date-picker'
import { isoToZoned } from '~/lib/zoned-time'

/**
 * The console's form kit (Conform + valibot). One schema per form, shared with its action (`apiAction`):
 *
 * ```tsx
 * const lastResult = useActionData<typeof action>()
 * <KitForm schema={GenreInput} fields={genreFields} lastResult={lastResult} defaultValue={genre} timeZone={tz}>
 *   <SpecFields fields={genreFields} />
 * </KitForm>
 * ```
 *
 * The form is a plain POST (works without script: the action answers the submission with its errors and the
 * typed values kept); with script it validates live (a field once left, then on every input) with the same parse
 * as the action. A submit with errors moves focus to the first invalid field and shows an error summary (role
 * alert, a link per field); errors of no field are toasted too. Every form is `noValidate`: messages are the kit's
 * translated ones, never the browser's.
 */
export function KitForm<S extends v.GenericSchema>({
  schema,
  fields,
  prepare,
  lastResult,
  defaultValue,
  timeZone,
  labels = {},
  submitLabel,
  submitIcon = 'check',
  method = 'post',
  action,
  protect = false,
  id,
  'aria-label': ariaLabel,
  className = 'card simple-form',
  children,
  actions,
  buttons,
  fetcher,
  onSaved,
  onInvalid,
}: {
  schema: S
  /** Declared fields: how form data becomes the API's JSON (and their labels for the summary). */
  fields?: FieldSpec[]
  /** Turns the read values before validating, as the action's `prepare` does (e.g. one text box → a list). */
  prepare?: (values: Record<string, unknown>) => Record<string, unknown>
  lastResult?: SubmissionResult<string[]> | null | unknown
  /** The record being edited (API shape); declared date-times are shown in the realm's zone. */
  defaultValue?: Record<string, unknown>
  timeZone: string
  /** Field name → translated label, for the error summary (declared fields' labels are added). */
  labels?: Record<string, string>
  /** Text of the submit button (default: Save). */
  submitLabel?: string
  submitIcon?: IconName
  /**
   * `get`: a filter form (the values go in the URL for the loader, which reads them with the same schema); it posts
   * neither the language nor the zone, its dates are read in the page's language.
   */
  method?: 'get' | 'post'
  /** Where the form posts (default: the page's own action), e.g. `?intent=add_member`. */
  action?: string
  /** Warn before leaving with unsaved changes. */
  protect?: boolean
  id?: string
  'aria-label'?: string
  className?: string
  children: ReactNode
  /** Buttons beside the submit button. */
  actions?: ReactNode
  /** The form's own submit buttons instead of the one Save (e.g. two outcomes posting `name=value`). */
  buttons?: ReactNode
  /**
   * A form in a dialog posts with this fetcher (the page stays; `lastResult` is its data) and its action answers a
   * success with `submission.reply()`; `onSaved` runs then (close the dialog, toast).
   */
  fetcher?: FetcherWithComponents<unknown>
  onSaved?: () => void
  /**
   * A submit refused (in the browser, or the action's answer), with the invalid fields' names, before the first is
   * focused: a tabbed form shows the tab holding it.
   */
  onInvalid?: (names: string[]) => void
}) {
  const { t, i18n } = useTranslation()
  const toast = useToast()
  const locale = i18n.language
  const result = isSubmissionResult(lastResult) ? lastResult : undefined
  const [form] = useForm<Record<string, unknown>, Record<string, unknown>, string[]>({
    id,
    lastResult: result,
    defaultValue: (fields ? formDefaults(fields, defaultValue ?? {}, timeZone, locale) : defaultValue) as never,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseForm(formData, { schema, fields, timeZone, locale, prepare }) as Submission<Record<string, unknown>, string[]>,
  })
  const [attempt, setAttempt] = useState(0)
  const [dirty, setDirty] = useState(false)
  const formRef = useRef<HTMLFormElement>(null)
  const guard = useUnsavedChanges(protect && dirty)
  const allLabels = { ...Object.fromEntries((fields ?? []).map((f) => [f.name, f.literal ? f.label : t(f.label)])), ...labels }

  // A failed submit (in the browser, or the action's answer): focus the first invalid field, toast the rest.
  useEffect(() => {
    if (!attempt) return
    const invalid = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')
    ;(invalid ?? formRef.current?.querySelector<HTMLElement>('.error-summary'))?.focus()
  }, [attempt])
  const saved = useRef(onSaved)
  saved.current = onSaved
  useEffect(() => {
    if (result?.status === 'success') saved.current?.()
  }, [result])
  const invalid = useRef(onInvalid)
  invalid.current = onInvalid
  useEffect(() => {
    if (!result || result.status !== 'error') return
    invalid.current?.(Object.keys(result.error ?? {}).filter((name) => result.error?.[name]?.length))
    setAttempt((n) => n + 1)
    const general = result.error?.[''] ?? []
    if (general.length) toast.push({ kind: 'error', message: general.map((e) => errorText(t, decodeError(e))).join(' ') })
  }, [result, toast, t])

  const { onSubmit, ...formProps } = getFormProps(form)
  const submit = (e: FormEvent<HTMLFormElement>) => {
    onSubmit(e)
    // Conform prevents a submit it refused (errors) and handles list intents (add/remove/move) in place.
    const intent = (e.nativeEvent as SubmitEvent).submitter?.getAttribute('name') === '__intent__'
    if (intent) return
    if (e.defaultPrevented) {
      if (onInvalid) {
        const parsed = parseForm(new FormData(e.currentTarget), { schema, fields, timeZone, locale, prepare })
        const error = ('error' in parsed ? parsed.error : null) ?? {}
        onInvalid(Object.keys(error).filter((name) => error[name]?.length))
      }
      setAttempt((n) => n + 1)
    } else setDirty(false)
  }
  const showSummary = attempt > 0 || result?.status === 'error'
  const FormElement = fetcher ? fetcher.Form : Form
  return (
    <FormProvider context={form.context}>
      <FormElement
        method={method}
        action={action}
        {...formProps}
        ref={formRef}
        noValidate
        onSubmit={submit}
        onChange={() => setDirty(true)}
        className={className}
        aria-label={ariaLabel}
      >
        {method === 'post' ? (
          <>
            <input type="hidden" name={LOCALE_FIELD} value={locale} />
            <input type="hidden" name={ZONE_FIELD} value={timeZone} />
          </>
        ) : null}
        {showSummary ? <ErrorSummary form={form} labels={allLabels} /> : null}
        {children}
        <div className="form-actions">
          {/* No focus move on press: a field left by this click would show its error and push the button away
              before the mouse is released, and the click would be lost. */}
          {buttons ?? (
            <button type="submit" className="btn btn-primary" onMouseDown={(e) => e.preventDefault()}>
              <Icon name={submitIcon} /> {submitLabel ?? t('tms.form.save')}
            </button>
          )}
          {actions}
        </div>
        {guard}
      </FormElement>
    </FormProvider>
  )
}

const isSubmissionResult = (x: unknown): x is SubmissionResult<string[]> =>
  !!x && typeof x === 'object' && ('status' in x || 'initialValue' in x || 'error' in x) && !('ok' in x)

/** A stored number as a number field shows it in the page's language (`0,4` in pt-BR and es-ES); other values as they are. */
export const shownNumber = (value: unknown, locale: string) =>
  typeof value === 'number' ? String(value).replace('.', locale.startsWith('en') ? '.' : ',') : value

/** The record's values as the form shows them: numbers as text, date-times in the realm's zone and the language. */
function formDefaults(fields: FieldSpec[], row: Record<string, unknown>, timeZone: string, locale: string) {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const value = valueAt(row, f.name)
    let shown: unknown = value
    if (f.kind === 'datetime') shown = typeof value === 'string' ? showDateTime(isoToZoned(value, timeZone), locale) : ''
    else if (f.kind === 'date') shown = typeof value === 'string' ? showDate(value, locale) : ''
    else if (f.kind === 'list') shown = Array.isArray(value) ? value.join(', ') : value
    else if (f.kind === 'lines') shown = Array.isArray(value) ? value.join('\n') : value
    else if (f.kind === 'checkbox') shown = value === true ? 'on' : undefined
    else if (f.kind === 'number') shown = shownNumber(value, locale)
    else if (value === null) shown = ''
    const [head, key] = f.name.split('.', 2)
    if (key !== undefined) out[head] = { ...(out[head] as object), [key]: shown }
    else out[f.name] = shown
  }
  return out
}

/** The errors of the last submit: one line per invalid field (its label, linked to it), then the form's own. */
function ErrorSummary({ form, labels }: { form: FormMetadata<Record<string, unknown>, string[]>; labels: Record<string, string> }) {
  const { t } = useTranslation()
  const entries = Object.entries(form.allErrors).filter(([, errors]) => errors.length)
  if (!entries.length) return null
  const labelOf = (name: string) => {
    for (let n = name; n; n = n.replace(/(\.[^.[\]]+|\[\d+\])$/, '')) {
      if (labels[n]) return labels[n]
      if (!/[.[]/.test(n)) break
    }
    return null
  }
  return (
    <div className="alert alert-error error-summary" role="alert" tabIndex={-1}>
      <p>
        <strong>{t('form.summary', { count: entries.length })}</strong>
      </p>
      <ul>
        {entries.map(([name, errors]) => {
          const text = errorText(t, decodeError(errors[0]))
          const label = name ? labelOf(name) : null
          return (
            <li key={name || '_form'}>
              {label ? (
                <a href={`#${form.id}-${name}`}>
                  {label}: {text}
                </a>
              ) : (
                text
              )}
            </li>
          )
        })}
      </ul>
    </div>
  )
}

/** A field's frame: label, control, hint, then the error (announced), tied to the control by ids. */
export function KitField({
  name,
  label,
  hint,
  required,
  inline = false,
  children,
}: {
  name: string
  label: string
  hint?: string
  required?: boolean
  /** A checkbox: the label follows the control. */
  inline?: boolean
  children: (control: ControlProps) => ReactNode
}) {
  const [meta] = useField<unknown>(name)
  const error = meta.errors?.[0]
  const control: ControlProps = {
    id: meta.id,
    name: meta.name,
    key: meta.key,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': [error ? meta.errorId : '', hint ? meta.descriptionId : ''].filter(Boolean).join(' ') || undefined,
    'aria-required': required || undefined,
    defaultValue: meta.initialValue,
  }
  const mark = required ? <span aria-hidden="true"> *</span> : null
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      {inline ? (
        <label className="switch" htmlFor={meta.id}>
          {children(control)} {label}
          {mark}
        </label>
      ) : (
        <>
          <label htmlFor={meta.id}>
            {label}
            {mark}
          </label>
          {children(control)}
        </>
      )}
      <FieldNotes meta={meta} hint={hint} error={error} />
    </div>
  )
}

export interface ControlProps {
  id: string
  name: string
  key: string | undefined
  'aria-invalid': true | undefined
  'aria-describedby': string | undefined
  'aria-required': true | undefined
  defaultValue: unknown
}

type Common = { name: string; label: string; hint?: string; required?: boolean; disabled?: boolean }

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value))

export function TextInput({
  type = 'text',
  autoComplete,
  maxLength,
  placeholder,
  list,
  ...p
}: Common & {
  type?: 'text' | 'email' | 'url' | 'color' | 'password'
  autoComplete?: string
  maxLength?: number
  placeholder?: string
  /** Id of a `<datalist>` of suggestions. */
  list?: string
}) {
  return (
    <KitField {...p}>
      {({ key, defaultValue, ...c }) => (
        <input
          key={key}
          {...c}
          className="input"
          type={type}
          autoComplete={autoComplete}
          maxLength={maxLength}
          placeholder={placeholder}
          list={list}
          disabled={p.disabled}
          defaultValue={text(defaultValue)}
        />
      )}
    </KitField>
  )
}

export function TextArea({ rows = 3, code = false, ...p }: Common & { rows?: number; /** Code or JSON: monospaced, no spell check. */ code?: boolean }) {
  return (
    <KitField {...p}>
      {({ key, defaultValue, ...c }) => (
        <textarea
          key={key}
          {...c}
          className={code ? 'input code' : 'input'}
          spellCheck={code ? false : undefined}
          rows={rows}
          disabled={p.disabled}
          defaultValue={text(defaultValue)}
        />
      )}
    </KitField>
  )
}

/**
 * A number typed as text (never altered while typing: `1.5`, `1,5` and `-5` stay as typed), read by `readNumber`;
 * min, max and step are the schema's rules, so their messages are the kit's.
 */
export function NumberInput({ decimal = true, ...p }: Common & { decimal?: boolean }) {
  return <TypedText {...p} inputMode={decimal ? 'decimal' : 'numeric'} />
}

export function SelectInput({ options, placeholder, ...p }: Common & { options: { value: string; label: string }[]; placeholder?: string }) {
  return (
    <KitField {...p}>
      {({ key, defaultValue, ...c }) => (
        <select key={key} {...c} className="input" disabled={p.disabled} defaultValue={text(defaultValue)}>
          {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </KitField>
  )
}

export function CheckboxInput(p: Common) {
  return (
    <KitField {...p} inline>
      {({ key, defaultValue, ...c }) => (
        <input key={key} {...c} type="checkbox" disabled={p.disabled} defaultChecked={defaultValue === 'on' || defaultValue === true} />
      )}
    </KitField>
  )
}

/**
 * A date-time typed in the page language's format (pt-BR and es-ES `dd/mm/aaaa hh:mm`, en-US `mm/dd/yyyy hh:mm`),
 * in the realm's time zone, which the hint names. A text input rather than the browser's date input, whose format
 * follows the browser's language instead of the page's.
 */
export function DateTimeInput({ timeZone, ...p }: Common & { timeZone: string }) {
  const { t, i18n } = useTranslation()
  const pattern = dateTimePattern(i18n.language)
  return (
    <TypedText
      {...p}
      inputMode="numeric"
      placeholder={pattern}
      hint={[p.hint, t('form.datetime_hint', { pattern, zone: timeZone })].filter(Boolean).join(' ')}
    />
  )
}

/**
 * A day typed in the page language's format (`dd/mm/aaaa`, en-US `mm/dd/yyyy`), which the hint names, with a calendar
 * button beside it once the page's script runs (./date-picker.tsx).
 */
export function DateInput(p: Common) {
  const { t, i18n } = useTranslation()
  const pattern = dateTimePattern(i18n.language, false)
  return (
    <TypedText
      {...p}
      inputMode="numeric"
      placeholder={pattern}
      hint={[p.hint, t('form.date_hint', { pattern })].filter(Boolean).join(' ')}
      after={(id) => <DatePicker inputId={id} label={p.label} disabled={p.disabled} />}
    />
  )
}

/**
 * A value typed as text and read by the schema (numbers, dates): never altered while typing, no browser widget;
 * `after` renders beside the input (a date's calendar button), given the input's id.
 */
function TypedText({
  inputMode,
  placeholder,
  after,
  ...p
}: Common & { inputMode: 'decimal' | 'numeric'; placeholder?: string; after?: (inputId: string) => ReactNode }) {
  return (
    <KitField {...p}>
      {({ key, defaultValue, ...c }) => {
        const input = (
          <input
            key={key}
            {...c}
            className="input"
            type="text"
            inputMode={inputMode}
            placeholder={placeholder}
            autoComplete="off"
            disabled={p.disabled}
            defaultValue={text(defaultValue)}
          />
        )
        return after ? (
          <div className="input-group">
            {input}
            {after(c.id)}
          </div>
        ) : (
          input
        )
      }}
    </KitField>
  )
}

/** Several values of one field (checkboxes sharing a name). */
export function CheckboxGroup(p: Common & { options: { value: string; label: ReactNode; disabled?: boolean }[]; className?: string }) {
  return <ChoiceGroup {...p} type="checkbox" />
}

/** One value of several (radio buttons sharing a name); an option may be disabled, its label any content. */
export function RadioGroup(p: Common & { options: { value: string; label: ReactNode; disabled?: boolean }[]; className?: string }) {
  return <ChoiceGroup {...p} type="radio" />
}

/** Checkboxes or radio buttons sharing a name, under one legend, with the field's hint and error. */
function ChoiceGroup({
  name,
  label,
  options,
  hint,
  type,
  className = 'field option-list',
}: Common & { options: { value: string; label: ReactNode; disabled?: boolean }[]; type: 'checkbox' | 'radio'; className?: string }) {
  const [meta] = useField<string[] | string>(name)
  const chosen = Array.isArray(meta.initialValue) ? meta.initialValue : meta.initialValue ? [meta.initialValue] : []
  const error = meta.errors?.[0]
  return (
    <fieldset
      className={className}
      id={meta.id}
      aria-invalid={error ? true : undefined}
      aria-describedby={[error ? meta.errorId : '', hint ? meta.descriptionId : ''].filter(Boolean).join(' ') || undefined}
    >
      <legend className="field-label">{label}</legend>
      {options.map((o) => (
        <label key={o.value} className={type === 'radio' ? 'radio' : 'switch'}>
          <input type={type} name={meta.name} value={o.value} defaultChecked={chosen.includes(o.value)} disabled={o.disabled} />{' '}
          {type === 'radio' ? <span>{o.label}</span> : o.label}
        </label>
      ))}
      <FieldNotes meta={meta} hint={hint} error={error} />
    </fieldset>
  )
}

/** One icon of a few (radio buttons showing each icon with its label): the value is the icon's name. */
export function IconPicker({ options, ...p }: Common & { options: { value: string; label: string }[] }) {
  return (
    <RadioGroup
      {...p}
      className="field option-list icon-picker"
      options={options.map((o) => ({
        value: o.value,
        label: (
          <>
            <Icon name={o.value as IconName} /> {o.label}
          </>
        ),
      }))}
    />
  )
}

/** A nested object's fields under one legend (names `parent.child`). */
export function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="field-group">
      <legend>{legend}</legend>
      {children}
    </fieldset>
  )
}

/**
 * A list of items (`name[0]`, `name[1]`…) with add, remove and move buttons. The buttons are Conform intents (submit
 * buttons named `__intent__`: Conform's button props carry no type): with script they change the form in place;
 * without, they post and the action answers the changed form.
 */
export function ListField({
  name,
  label,
  addLabel,
  newItem,
  children,
}: {
  name: string
  label: string
  addLabel: string
  /** Value of an added item. */
  newItem?: unknown
  /** One item's fields, given its name (`targets[2]`) and index. */
  children: (itemName: string, index: number) => ReactNode
}) {
  const { t } = useTranslation()
  const form = useFormMetadata()
  const [meta] = useField<unknown[]>(name)
  const items = meta.getFieldList()
  const error = meta.errors?.[0]
  return (
    <fieldset className="field list-field" id={meta.id} aria-describedby={error ? meta.errorId : undefined}>
      <legend className="field-label">{label}</legend>
      <ol className="list-field-items">
        {items.map((item, index) => (
          <li key={item.key ?? item.name} className="list-field-item">
            {children(item.name, index)}
            <span className="list-field-tools">
              <button
                type="submit"
                className="btn btn-icon"
                disabled={index === 0}
                {...form.reorder.getButtonProps({ name: name as FieldName<unknown[]>, from: index, to: index - 1 })}
              >
                <Icon name="arrowUp" label={t('form.list.up', { n: String(index + 1) })} />
              </button>
              <button
                type="submit"
                className="btn btn-icon"
                disabled={index === items.length - 1}
                {...form.reorder.getButtonProps({ name: name as FieldName<unknown[]>, from: index, to: index + 1 })}
              >
                <Icon name="arrowDown" label={t('form.list.down', { n: String(index + 1) })} />
              </button>
              <button type="submit" className="btn btn-icon" {...form.remove.getButtonProps({ name: name as FieldName<unknown[]>, index })}>
                <Icon name="trash" label={t('form.list.remove', { n: String(index + 1) })} />
              </button>
            </span>
          </li>
        ))}
      </ol>
      <button type="submit" className="btn" {...form.insert.getButtonProps({ name: name as FieldName<unknown[]>, defaultValue: newItem as never })}>
        <Icon name="plus" /> {addLabel}
      </button>
      {error ? (
        <p className="error" id={meta.errorId}>
          {errorText(t, decodeError(error))}
        </p>
      ) : null}
    </fieldset>
  )
}

/** A declared field (`FieldSpec`) with the kit's component for its kind. */
export function SpecField({ spec, timeZone }: { spec: FieldSpec; timeZone: string }) {
  const { t } = useTranslation()
  const p = { name: spec.name, label: spec.literal ? spec.label : t(spec.label), hint: spec.hint ? t(spec.hint) : undefined, required: spec.required }
  const options = (spec.options ?? []).map((o) => ({ value: String(o.value), label: t(o.label, { defaultValue: o.label }) }))
  switch (spec.kind) {
    case 'textarea':
      return <TextArea {...p} />
    case 'lines':
      return <TextArea {...p} rows={6} />
    case 'number':
      return <NumberInput {...p} decimal={spec.step !== undefined && spec.step !== '1'} />
    case 'checkbox':
      return <CheckboxInput {...p} />
    case 'select':
      return <SelectInput {...p} options={options} placeholder={spec.nullable ? t('tms.form.none') : undefined} />
    case 'checkboxes':
      return <CheckboxGroup {...p} options={options} />
    case 'icon':
      return <IconPicker {...p} options={options} />
    case 'datetime':
      return <DateTimeInput {...p} timeZone={timeZone} />
    case 'date':
      return <DateInput {...p} />
    case 'color':
      return <TextInput {...p} type="color" />
    case 'list':
    case 'text':
      return <TextInput {...p} />
  }
}

/** Every declared field, in order. */
export function SpecFields({ fields, timeZone }: { fields: FieldSpec[]; timeZone: string }) {
  return (
    <>
      {fields.map((f) => (
        <SpecField key={f.name} spec={f} timeZone={timeZone} />
      ))}
    </>
  )
}

/**
 * For controlled number inputs outside a kit form (editors holding JSON state): the text stays as typed (`1.`,
 * `-`, `1,5`) while the number (NaN when unreadable, for the schema to report) goes to `onChange`; a new value
 * from outside replaces the text.
 */
export function useNumberText(value: unknown, onChange: (n: number) => void) {
  const shown = typeof value === 'number' && Number.isFinite(value) ? String(value) : ''
  const [text, setText] = useState(shown)
  const [last, setLast] = useState(shown)
  if (shown !== last) {
    setLast(shown)
    const typed = readNumber(text)
    if (typed !== value) setText(shown)
  }
  return {
    value: text,
    onChange: (e: { currentTarget: { value: string } }) => {
      const raw = e.currentTarget.value
      setText(raw)
      const n = readNumber(raw)
      onChange(typeof n === 'number' ? n : Number.NaN)
    },
  }
}

/** A field's hint and error, under the ids its control points at with `aria-describedby`. */
function FieldNotes({ meta, hint, error }: { meta: { descriptionId: string; errorId: string }; hint?: ReactNode; error?: string }) {
  const { t } = useTranslation()
  return (
    <>
      {hint ? (
        <p className="hint" id={meta.descriptionId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="error" id={meta.errorId}>
          {errorText(t, decodeError(error))}
        </p>
      ) : null}
    </>
  )
}
