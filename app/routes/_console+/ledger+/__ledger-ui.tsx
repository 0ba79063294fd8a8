import { useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { fieldErrors } from '#shared/schemas/auth'

/**
 * What remains of the ledger's own form stack, for its GET filter forms (the report period, the new-price key box)
 * and the sandbox provider's checkout page (not a console screen: no route guard, so no `apiAction`); every console
 * form that posts uses the form kit (`~/components/form/kit`).
 *
 * Live validation of a ledger form with the same valibot schema the API uses: a field shows its first failed rule
 * once it was touched (or after a submit attempt), while the user types.
 */
export function useLiveValidation<S extends v.GenericSchema>(schema: S, body: unknown) {
  const [touched, setTouched] = useState<Set<string>>(() => new Set())
  const [submitted, setSubmitted] = useState(false)
  const result = v.safeParse(schema, body)
  const all = result.success ? {} : fieldErrors(result.issues)
  const errors: Record<string, string> = Object.fromEntries(Object.entries(all).filter(([k]) => submitted || touched.has(k.split('.')[0])))
  return {
    errors,
    valid: result.success,
    output: result.success ? (result.output as v.InferOutput<S>) : null,
    touch: (field: string) => setTouched((t) => (t.has(field) ? t : new Set(t).add(field))),
    /** Marks every field as shown; answers whether the form may be sent. */
    attempt: () => {
      setSubmitted(true)
      return result.success
    },
  }
}

/** Accessibility attributes of an input with an optional error and hint. */
export function described(id: string, error?: string, hint?: boolean) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  }
}

/** A labelled form field with its error (or hint) under it. */
export function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p className="error" id={`${id}-error`}>
          {t(error, { defaultValue: error })}
        </p>
      ) : hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  )
}

/** An API refusal shown in the page: one line per error, translated by cause, with the value it concerns. */
export function ErrorAlert({ errors, title }: { errors: ErrorItem[] | undefined; title?: string }) {
  const { t } = useTranslation()
  if (!errors?.length) return null
  return (
    <div className="alert alert-error" role="alert">
      {title ? <strong>{t(title)}</strong> : null}
      <ul>
        {errors.map((e, i) => (
          <li key={i}>
            {t(e.message, { defaultValue: t(`errors.${e.cause}`, { defaultValue: e.message }) })}
            {typeof e.value === 'string' && e.value ? (
              <>
                {' '}
                — <code>{e.value}</code>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  )
}
