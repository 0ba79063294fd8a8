import { useId, useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import { readNumber } from '~/lib/form-kit'

/** Common props of the console's controlled form fields: a label, a hint, the error key, and touch on blur. */
export interface FieldProps<T> {
  label: string
  value: T
  onChange: (value: T) => void
  onBlur?: () => void
  error?: string
  hint?: string
  disabled?: boolean
  required?: boolean
  /** Values for the error's placeholders (e.g. a minimum). */
  errorValues?: Record<string, string>
}

/** Label, control, then the hint or the error (announced), linked to the control with aria-describedby. */
export function FieldShell({
  id,
  label,
  error,
  hint,
  errorValues,
  children,
  required,
}: {
  id: string
  label: string
  error?: string
  hint?: string
  errorValues?: Record<string, string>
  children: ReactNode
  required?: boolean
}) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required ? <span aria-hidden="true"> *</span> : null}
      </label>
      {children}
      <FieldMessage id={id} error={error} hint={hint} errorValues={errorValues} />
    </div>
  )
}

/** The field's error (announced) or else its hint, under the id the control's aria-describedby names. */
function FieldMessage({ id, error, hint, errorValues }: { id: string; error?: string; hint?: string; errorValues?: Record<string, string> }) {
  const { t } = useTranslation()
  if (error) {
    return (
      <p className="error" id={`${id}-msg`} role="alert">
        {t(error, { defaultValue: error, ...errorValues })}
      </p>
    )
  }
  return hint ? (
    <p className="hint" id={`${id}-msg`}>
      {hint}
    </p>
  ) : null
}

const described = (id: string, error?: string, hint?: string) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error || hint ? `${id}-msg` : undefined,
})

export function TextField({
  type = 'text',
  autoComplete,
  maxLength,
  placeholder,
  list,
  ...p
}: FieldProps<string> & { type?: string; autoComplete?: string; maxLength?: number; placeholder?: string; list?: string }) {
  const id = useId()
  return (
    <FieldShell id={id} {...p}>
      <input
        id={id}
        className="input"
        type={type}
        value={p.value}
        disabled={p.disabled}
        required={p.required}
        autoComplete={autoComplete}
        maxLength={maxLength}
        placeholder={placeholder}
        list={list}
        onChange={(e) => p.onChange(e.currentTarget.value)}
        onBlur={p.onBlur}
        {...described(id, p.error, p.hint)}
      />
    </FieldShell>
  )
}

/** A whole number; an empty or unreadable input is NaN, which the schema reports as "enter a number". */
export function NumberField(p: FieldProps<number> & { min?: number; max?: number }) {
  const id = useId()
  const [text, setText] = useState(Number.isFinite(p.value) ? String(p.value) : '')
  return (
    <FieldShell id={id} {...p}>
      <input
        id={id}
        className="input"
        type="text"
        inputMode="numeric"
        autoComplete="off"
        value={text}
        disabled={p.disabled}
        onChange={(e) => {
          const raw = e.currentTarget.value
          setText(raw)
          const n = readNumber(raw)
          p.onChange(typeof n === 'number' ? n : Number.NaN)
        }}
        onBlur={p.onBlur}
        {...described(id, p.error, p.hint)}
      />
    </FieldShell>
  )
}

export function CheckboxField(p: FieldProps<boolean>) {
  const id = useId()
  return (
    <div className="field field-check">
      <label className="switch" htmlFor={id}>
        <input
          id={id}
          type="checkbox"
          checked={p.value}
          disabled={p.disabled}
          onChange={(e) => p.onChange(e.currentTarget.checked)}
          onBlur={p.onBlur}
          {...described(id, p.error, p.hint)}
        />
        <span>{p.label}</span>
      </label>
      <FieldMessage id={id} error={p.error} hint={p.hint} />
    </div>
  )
}

export function SelectField({ options, ...p }: FieldProps<string> & { options: { value: string; label: string }[] }) {
  const id = useId()
  return (
    <FieldShell id={id} {...p}>
      <select
        id={id}
        className="input"
        value={p.value}
        disabled={p.disabled}
        onChange={(e) => p.onChange(e.currentTarget.value)}
        onBlur={p.onBlur}
        {...described(id, p.error, p.hint)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldShell>
  )
}

/** A list of short texts, one per line. */
export function LinesField({ rows = 4, ...p }: FieldProps<string[]> & { rows?: number }) {
  const id = useId()
  const [text, setText] = useState(p.value.join('\n'))
  return (
    <FieldShell id={id} {...p}>
      <textarea
        id={id}
        className="input"
        rows={rows}
        value={text}
        disabled={p.disabled}
        onChange={(e) => {
          setText(e.currentTarget.value)
          p.onChange(
            e.currentTarget.value
              .split('\n')
              .map((x) => x.trim())
              .filter(Boolean),
          )
        }}
        onBlur={p.onBlur}
        {...described(id, p.error, p.hint)}
      />
    </FieldShell>
  )
}

/** Several of a fixed set of options (checkboxes in a fieldset). */
export function ChoicesField({ options, ...p }: FieldProps<string[]> & { options: { value: string; label: string }[] }) {
  const id = useId()
  return (
    <fieldset className="field choices" aria-describedby={p.error || p.hint ? `${id}-msg` : undefined} aria-invalid={p.error ? true : undefined}>
      <legend>{p.label}</legend>
      {options.map((o) => (
        <label key={o.value} className="switch">
          <input
            type="checkbox"
            checked={p.value.includes(o.value)}
            disabled={p.disabled}
            onChange={(e) => p.onChange(e.currentTarget.checked ? [...p.value, o.value] : p.value.filter((x) => x !== o.value))}
            onBlur={p.onBlur}
          />
          <span>{o.label}</span>
        </label>
      ))}
      <FieldMessage id={id} error={p.error} hint={p.hint} />
    </fieldset>
  )
}

/** A write-only secret: never shown; says whether one is stored; empty keeps it. */
export function SecretField(p: FieldProps<string> & { stored: string }) {
  const { t } = useTranslation()
  return (
    <TextField
      {...p}
      type="password"
      autoComplete="new-password"
      placeholder={p.stored ? p.stored : ''}
      hint={p.stored ? t('form.secret.stored', { mask: p.stored }) : t('form.secret.none')}
    />
  )
}

/** JSON typed by hand (rare structured settings); an unreadable text is kept as text so the schema refuses it. */
export function JsonField(p: FieldProps<unknown>) {
  const id = useId()
  const [text, setText] = useState(JSON.stringify(p.value ?? null, null, 2))
  return (
    <FieldShell id={id} {...p}>
      <textarea
        id={id}
        className="input code"
        rows={5}
        value={text}
        disabled={p.disabled}
        spellCheck={false}
        onChange={(e) => {
          const raw = e.currentTarget.value
          setText(raw)
          try {
            p.onChange(JSON.parse(raw))
          } catch {
            p.onChange(raw)
          }
        }}
        onBlur={p.onBlur}
        {...described(id, p.error, p.hint)}
      />
    </FieldShell>
  )
}
