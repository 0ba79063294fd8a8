import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { readDate, readDateTime, readNumber } from './form-kit'
import { zonedToIso } from './zoned-time'

/**
 * A plain form declared once: its fields, how each turns from form data into the API's JSON, and the valibot schema
 * the API uses. The screen validates live with that schema; the action converts the same way and sends it.
 */
export interface FieldSpec {
  name: string
  /** i18n key of the label (the label itself when `literal`). */
  label: string
  /** The label is the realm's own words (extra fields), not a translation key. */
  literal?: boolean
  kind: 'text' | 'textarea' | 'number' | 'checkbox' | 'select' | 'datetime' | 'date' | 'checkboxes' | 'list' | 'lines' | 'color' | 'icon'
  options?: { value: string; label: string }[]
  hint?: string
  required?: boolean
  /** An empty value is sent as null (optional references, dates). */
  nullable?: boolean
  /** Select values are numbers. (`icon`: one of the options' icons, shown as a picker of icons with their labels.) */
  numeric?: boolean
  step?: string
  min?: number
  max?: number
}

/**
 * Form data → the JSON body, field by field. Numbers keep what was typed (`readNumber`); date-times are typed in
 * the page language's format and read in the realm's time zone.
 */
export function formToValues(form: FormData, fields: FieldSpec[], timeZone: string, locale = 'pt-BR'): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    const raw = form.get(f.name)
    const value = fieldValue(form, f, typeof raw === 'string' ? raw : '', timeZone, locale)
    // `extra.key` fields (a realm's extra fields) go into a nested object, as the API takes them.
    const [head, key] = f.name.split('.', 2)
    if (key !== undefined) out[head] = { ...(out[head] as Record<string, unknown> | undefined), [key]: value }
    else out[f.name] = value
  }
  return out
}

/** The value at a field's name in a row (`extra.key` reads the nested object). */
export function valueAt(row: Record<string, unknown>, name: string): unknown {
  const [head, key] = name.split('.', 2)
  if (key === undefined) return row[head]
  const nested = row[head]
  return nested && typeof nested === 'object' ? (nested as Record<string, unknown>)[key] : undefined
}

/** The realm's extra fields of an entity as form fields (their labels are the realm's own words). */
export function extraFieldSpecs(items: { key: string; label: string; required: boolean }[]): FieldSpec[] {
  return items.map((f) => ({ name: `extra.${f.key}`, label: f.label, literal: true, kind: 'text', required: f.required }))
}

function fieldValue(form: FormData, f: FieldSpec, text: string, timeZone: string, locale: string): unknown {
  switch (f.kind) {
    case 'checkbox':
      return form.has(f.name)
    case 'checkboxes':
      return form.getAll(f.name).map(String)
    case 'list':
      return text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    case 'lines':
      // One value per line (a text box of sentences or hosts); blank lines are not values.
      return text
        .split('\n')
        .map((s) => s.trim())
        .filter(Boolean)
    case 'number':
      return readNumber(text)
    case 'datetime': {
      if (text.trim() === '') return null
      const local = readDateTime(text, locale)
      return (local && zonedToIso(local, timeZone)) ?? text
    }
    case 'date':
      // A day typed in the page language's format → `YYYY-MM-DD`; unreadable text goes on as typed (the schema says so).
      return text.trim() === '' ? (f.nullable ? null : undefined) : (readDate(text, locale) ?? text)
    case 'select':
      return text === '' && f.nullable ? null : f.numeric && text !== '' ? Number(text) : text
    default:
      // An empty required field is missing (the schema says "required", not "too short").
      return text === '' && f.nullable ? null : text === '' && f.required ? undefined : text
  }
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
    // An item names a declared field (`extra.code`) or belongs to the field it is part of (`options.2` → `options`).
    const top = fields.includes(e.field) ? e.field : e.field.split('.')[0]
    if (fields.includes(top) && !byField[top]) byField[top] = e
    else rest.push(e)
  }
  return { byField, rest }
}
