import { useCallback, useMemo, useState } from 'react'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'

/** Field → message key of the first failed rule per field (dotted paths), from a valibot schema. */
export function schemaErrors(schema: v.GenericSchema, value: unknown): Record<string, string> {
  const result = v.safeParse(schema, value)
  if (result.success) return {}
  const out: Record<string, string> = {}
  for (const issue of result.issues) {
    const path = (issue.path ?? []).map((p) => String(p.key))
    const message = issue.input === undefined && issue.kind === 'schema' ? 'validation.required' : issue.message
    out[path.join('.') || 'form'] ??= message
    // A list's item (hosts.2) also marks the list's own field, which is where its input shows errors.
    if (path.length > 1) out[path[0]] ??= message
  }
  return out
}

/** The API's error items as field → message (the field's own error under its input), and the rest. */
export function splitErrors(errors: ErrorItem[] | undefined): { fields: Record<string, string>; other: ErrorItem[] } {
  const fields: Record<string, string> = {}
  const other: ErrorItem[] = []
  for (const e of errors ?? []) {
    if (e.field && !e.field.startsWith('x-')) fields[e.field] ??= e.message.includes('.') && !e.message.includes(' ') ? e.message : `errors.${e.cause}`
    other.push(e)
  }
  return { fields, other }
}

/**
 * Live validation of a form's values with the schema the API uses: a field shows its error once touched (or after
 * a submit attempt); server errors show until the field changes.
 */
export function useLiveValidation<T extends Record<string, unknown>>(schema: v.GenericSchema, values: T, server?: ErrorItem[], more?: Record<string, string>) {
  const [touched, setTouched] = useState<Set<string>>(new Set())
  const [submitted, setSubmitted] = useState(false)
  const [changedSince, setChangedSince] = useState<Set<string>>(new Set())
  // `more`: rules of the realm the schema cannot know (e.g. its required extra fields).
  const extraKey = JSON.stringify(more ?? {})
  const live = useMemo(() => ({ ...schemaErrors(schema, values), ...(JSON.parse(extraKey) as Record<string, string>) }), [schema, values, extraKey])
  const fromServer = useMemo(() => splitErrors(server).fields, [server])
  const errorOf = useCallback(
    (field: string): string | undefined => {
      const shown = submitted || touched.has(field)
      return (shown ? live[field] : undefined) ?? (changedSince.has(field) ? undefined : fromServer[field])
    },
    [live, fromServer, touched, submitted, changedSince],
  )
  return {
    errors: live,
    valid: Object.keys(live).length === 0,
    errorOf,
    touch: useCallback((field: string) => {
      setTouched((s) => new Set(s).add(field))
      setChangedSince((s) => new Set(s).add(field))
    }, []),
    /** Marks every field touched; answers whether the values are valid (call before submitting). */
    attempt: useCallback(() => {
      setSubmitted(true)
      setChangedSince(new Set())
      return Object.keys(live).length === 0
    }, [live]),
  }
}

/** Values that differ from `initial` (JSON comparison), for updates that send only what changed. */
export function changedValues(initial: Record<string, unknown>, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([k, val]) => JSON.stringify(val ?? null) !== JSON.stringify(initial[k] ?? null)))
}
