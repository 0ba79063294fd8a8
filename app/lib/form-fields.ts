import * as v from 'valibot'
import type { ErrorItem } from '~/schemas/error'
import { zonedToIso } from './zoned-time'

/**
 * A plain form declared once: its fields, how each turns from form data into the API's JSON, and the valibot schema
 * the API uses. The screen validates live with that schema; the action converts the same way and sends it.
 */
export interface FieldSpec {
  name: string
  /** i18n key of the label. */
  label: string
  kind: 'text' | 'textarea' | 'number' | 'checkbox' | 'select' | 'datetime' | 'checkboxes' | 'list' | 'color'
  options?: { value: string; label: string }[]
  hint?: string
  required?: boolean
  /** An empty value is sent as null (optional references, dates). */
  nullable?: boolean
  /** Select values are numbers. */
  numeric?: boolean
  step?: string
  min?: number
  max?: number
}

/** Form data → the JSON body, field by field. Date-times are read in the realm's time zone. */
export function formToValues(form: FormData, fields: FieldSpec[], timeZone: string): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const raw = form.get(f.name)
    const text = typeof raw === 'string' ? raw : ''
    switch (f.kind) {
      case 'checkbox':
        out[f.name] = form.has(f.name)
        break
      case 'checkboxes':
        out[f.name] = form.getAll(f.name).map(String)
        break
      case 'list':
        out[f.name] = text.split(',').map((s) => s.trim()).filter(Boolean)
        break
      case 'number':
        out[f.name] = text.trim() === '' ? undefined : Number(text)
        break
      case 'datetime':
        out[f.name] = text.trim() === '' ? null : (zonedToIso(text, timeZone) ?? text)
        break
      case 'select':
        out[f.name] = text === '' && f.nullable ? null : f.numeric && text !== '' ? Number(text) : text
        break
      default:
        out[f.name] = text === '' && f.nullable ? null : text
    }
  }
  return out
}

/** Field → first message of the schema's issues (live validation). */
export function liveErrors(schema: v.GenericSchema, values: unknown): Record<string, string> {
  const r = v.safeParse(schema, values)
  const out: Record<string, string> = {}
  if (r.success) return out
  for (const issue of r.issues) {
    const field = (issue.path ?? []).map((p) => String(p.key)).join('.') || 'form'
    out[field] ??= issue.message
  }
  return out
}

/** Field → message of the API's error items; items of no known field stay for a general alert. */
export function splitErrors(items: ErrorItem[], fields: string[]): { byField: Record<string, ErrorItem>; rest: ErrorItem[] } {
  const byField: Record<string, ErrorItem> = {}
  const rest: ErrorItem[] = []
  for (const e of items) {
    const top = e.field.split('.')[0]
    if (fields.includes(top) && !byField[top]) byField[top] = e
    else rest.push(e)
  }
  return { byField, rest }
}
