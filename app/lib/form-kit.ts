import { parse, type Submission } from '@conform-to/react'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { formToValues, type FieldSpec } from './form-fields'

/**
 * The form kit's shared half (browser and action run the same code): form data → the API's JSON → the form's one
 * valibot schema, with Conform's submission shape (`{ status, payload, error, reply() }`).
 *
 * Conventions every form follows:
 * - errors are strings: a rule's i18n key (`validation.min_length`), or an API error item encoded by
 *   `encodeError` (so its cause and value survive the round trip); `errorMessage(t, s)` renders either;
 * - field names are Conform paths (`targets[0].nick`, `extra.inep`); the API's dotted paths (`targets.0.nick`) map
 *   onto them with `fieldName`;
 * - numbers are typed as text and read with `readNumber` (the locale's decimal comma, a minus sign, never altered);
 * - date-times are typed in the page language's format (`readDateTime`) and sent as ISO instants read in the
 *   realm's time zone; the form posts its language in `LOCALE_FIELD` so the action reads what the user saw.
 */

/** Hidden input of every kit form: the language the form was rendered in (its date format). */
export const LOCALE_FIELD = '_locale'
/** The time zone of a realm that names none (seed 000 §3). */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo'

/** Hidden input of every kit form: the realm's time zone its date-times are typed in. */
export const ZONE_FIELD = '_zone'

/**
 * A typed number as the user wrote it: optional minus, digits, one decimal separator (`.` or `,`, so pt-BR/es-ES
 * `1,5` and en-US `1.5` both read 1.5). Empty → undefined (the schema says "required" when it is); anything else
 * unreadable stays the text, so the schema says "enter a number" instead of the value silently changing.
 */
export function readNumber(text: string): number | string | undefined {
  const s = text.trim()
  if (s === '') return undefined
  if (!/^[-+−]?(\d+([.,]\d*)?|[.,]\d+)$/.test(s)) return s
  return Number(s.replace('−', '-').replace(',', '.'))
}

export { dateTimePattern, readDate, readDateTime, showDate, showDateTime } from './dates'

/** The API's dotted path (`targets.0.nick`) as a Conform field name (`targets[0].nick`). */
export function fieldName(path: string): string {
  return path
    .split('.')
    .filter(Boolean)
    .reduce((name, key) => (/^\d+$/.test(key) ? `${name}[${key}]` : name ? `${name}.${key}` : key), '')
}

/** An API error item as a form error string (its cause and value travel with it). */
export const encodeError = (e: Pick<ErrorItem, 'message' | 'cause' | 'value'>) => JSON.stringify({ message: e.message, cause: e.cause, value: e.value })

/** A form error string back to the parts `errorText` renders. */
export function decodeError(s: string): Pick<ErrorItem, 'message' | 'cause' | 'value'> {
  if (s.startsWith('{')) {
    try {
      return JSON.parse(s) as ErrorItem
    } catch {
      /* a plain message */
    }
  }
  return { message: s, cause: 'invalid', value: null }
}

/** valibot issues → Conform's error record (field name → messages); the first message of a field is shown. */
function issuesToErrors(issues: v.BaseIssue<unknown>[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const issue of issues) {
    const path = (issue.path ?? []).map((p) => String(p.key)).join('.')
    const message = issue.input === undefined && issue.kind === 'schema' ? 'validation.required' : issue.message
    ;(out[fieldName(path)] ??= []).push(message)
  }
  return out
}

/**
 * Errors of a value inside a declared field (a line of a `lines` field: `hosts[2]`) go on that field, where its
 * input shows them — a line's error naming its line ("line 3: …"); forms without declared fields keep the paths
 * (their inputs are the items).
 */
function onDeclared(errors: Record<string, string[]>, formData: FormData, fields?: FieldSpec[]): Record<string, string[]> {
  if (!fields) return errors
  const declared = new Map(fields.map((f) => [f.name, f]))
  const out: Record<string, string[]> = {}
  for (const [name, messages] of Object.entries(errors)) {
    let at = name
    while (at && !declared.has(at)) at = at.replace(/(\.[^.[\]]+|\[\d+\])$/, '') === at ? '' : at.replace(/(\.[^.[\]]+|\[\d+\])$/, '')
    const item = at && declared.get(at)?.kind === 'lines' ? /^\[(\d+)\]/.exec(name.slice(at.length)) : null
    const text = formData.get(at)
    ;(out[at || name] ??= []).push(
      ...(item && typeof text === 'string' ? messages.map((m) => lineError(decodeError(m), textLine(text, Number(item[1])))) : messages),
    )
  }
  return out
}

/** The line (1-based, as the box shows it, blank lines counted) of the `index`-th value of a `lines` text. */
export function textLine(text: string, index: number): number {
  let seen = -1
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) if (lines[i].trim() && ++seen === index) return i + 1
  return index + 1
}

/** An error of one line of a `lines` field: `form.line_error` ("line 3: …") around the line's own error. */
export const lineError = (e: Pick<ErrorItem, 'message' | 'cause' | 'value'>, line: number) =>
  encodeError({ message: 'form.line_error', cause: e.cause, value: { line, rule: e.message, cause: e.cause, value: e.value ?? null } })

/**
 * An API error item of one value of a declared `lines` field (`sentences.2`) as an item of the field naming the line
 * the user typed it on; any other item as it is.
 */
export function onLine(item: ErrorItem, formData: FormData, fields?: FieldSpec[]): ErrorItem {
  const m = /^(.+)\.(\d+)$/.exec(item.field ?? '')
  const spec = m ? fields?.find((f) => f.kind === 'lines' && f.name === m[1]) : undefined
  const text = spec ? formData.get(spec.name) : null
  if (!m || !spec || typeof text !== 'string') return item
  return { ...item, field: spec.name, ...JSON.parse(lineError(item, textLine(text, Number(m[2])))) }
}

export interface ParseOptions<S extends v.GenericSchema> {
  /** The form's one schema (usually the API's own input schema). */
  schema: S
  /**
   * The form's declared fields: how each turns from form data into JSON (numbers, checkboxes, nullable selects,
   * date-times, `extra.key`). Without them, the form data's structure is read by Conform (`a[0].b`) and numbers by
   * `readNumber` where the schema expects one.
   */
  fields?: FieldSpec[]
  /** Realm time zone of date-time fields (the form's `_zone` input when absent). */
  timeZone?: string
  /** Language the dates were typed in (the form's `_locale` input when absent: a GET form does not post it). */
  locale?: string
  /** Turns the read values before validating (e.g. the route adds a fixed key). */
  prepare?: (values: Record<string, unknown>) => Record<string, unknown>
}

/** Parses a submitted form with its schema: the same call in the browser (live) and in the action (server). */
export function parseForm<S extends v.GenericSchema>(formData: FormData, opts: ParseOptions<S>): Submission<v.InferOutput<S>, string[]> {
  return parse<v.InferOutput<S>, string[]>(formData, {
    resolve(payload) {
      const locale = opts.locale ?? (typeof payload[LOCALE_FIELD] === 'string' ? payload[LOCALE_FIELD] : 'pt-BR')
      const timeZone = opts.timeZone ?? (typeof payload[ZONE_FIELD] === 'string' ? payload[ZONE_FIELD] : DEFAULT_TIME_ZONE)
      let values: Record<string, unknown> = opts.fields ? formToValues(formData, opts.fields, timeZone, locale) : coerce(payload, opts.schema)
      if (opts.prepare) values = opts.prepare(values)
      const result = v.safeParse(opts.schema, values)
      return result.success ? { value: result.output } : { error: onDeclared(issuesToErrors(result.issues), formData, opts.fields) }
    },
  })
}

/** Without field specs: strip Conform's own keys, read numbers where the schema has a number. */
function coerce(payload: Record<string, unknown>, schema: v.GenericSchema): Record<string, unknown> {
  const walk = (value: unknown, s: v.GenericSchema | undefined): unknown => {
    const inner = unwrap(s)
    if (typeof value === 'string') {
      if (inner?.type === 'number') return readNumber(value)
      if (inner?.type === 'boolean') return value === 'on' || value === 'true'
      return value === '' && inner && s !== inner ? undefined : value
    }
    if (Array.isArray(value)) return value.map((item) => walk(item, inner && 'item' in inner ? (inner.item as v.GenericSchema) : undefined))
    if (value && typeof value === 'object') {
      const entries = inner && 'entries' in inner ? (inner.entries as Record<string, v.GenericSchema>) : {}
      return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, walk(item, entries[k])]))
    }
    return value
  }
  const { [LOCALE_FIELD]: _l, [ZONE_FIELD]: _z, ...rest } = payload
  return walk(rest, schema) as Record<string, unknown>
}

/** The schema under optional/nullable/pipe wrappers. */
function unwrap(s: v.GenericSchema | undefined): v.GenericSchema | undefined {
  let cur = s as (v.GenericSchema & { wrapped?: v.GenericSchema; pipe?: v.GenericSchema[] }) | undefined
  for (let i = 0; cur && i < 8; i++) {
    if (cur.wrapped) cur = cur.wrapped as typeof cur
    else if (cur.pipe && cur.pipe[0] !== cur) cur = cur.pipe[0] as typeof cur
    else break
  }
  return cur
}
