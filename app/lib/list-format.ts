import { dateTimeFormat, formatTime, type Clock } from '~/lib/format'

/**
 * A time column's cell: on screen (with the clock) in the realm's zone and the page language (formatTime); in CSV
 * (no clock) the ISO 8601 UTC instant as stored.
 */
export const when = (v: unknown, _row?: unknown, _t?: unknown, clock?: Clock) => (typeof v === 'string' && v ? (clock ? formatTime(v, clock) : v) : '')
/** Like `when`, with seconds (logs). */
export const whenSeconds = (v: unknown, _row?: unknown, _t?: unknown, clock?: Clock) =>
  typeof v === 'string' && v ? (clock ? formatTime(v, clock, 'second') : v) : ''
/** Like `when`, the day only. */
export const day = (v: unknown, _row?: unknown, _t?: unknown, clock?: Clock) => (typeof v === 'string' && v ? (clock ? formatTime(v, clock, 'day') : v) : '')
/**
 * "Updated" column: the row's `updated_at` only when it changed after its creation (creation stamps both dates with
 * one instant), else empty; "new" is its `created_at` shown with `when`.
 */
export const whenUpdated = (v: unknown, row: { created_at?: unknown }, _t?: unknown, clock?: Clock) =>
  typeof v === 'string' && typeof row.created_at === 'string' && v > row.created_at ? when(v, row, _t, clock) : ''
export const joined = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '')

/** A list spec whose select filters get their options at run time (the realm's categories, rooms). */
export function withFilterOptions<S extends { search?: { field: string; options?: { label: string; value: string }[] }[] }>(
  spec: S,
  options: Record<string, { label: string; value: string }[]>,
): S {
  return { ...spec, search: spec.search?.map((d) => (options[d.field] ? { ...d, options: options[d.field] } : d)) }
}

/**
 * A calendar day stored as `YYYY-MM-DD` (no instant: the same day in every zone): on screen in the page language's
 * date format; in CSV as stored.
 */
export const calendarDay = (v: unknown, _row?: unknown, _t?: unknown, clock?: Clock) =>
  typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)
    ? clock
      ? dateTimeFormat(clock.locale, { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(`${v}T00:00:00Z`))
      : v
    : ''

/** A flag's column: yes or no. */
export const yesNo = (v: unknown, _row: unknown, t: (key: string) => string) => t(v ? 'form.yes' : 'form.no')

/** A flag's select filter: yes or no. */
export const YES_NO = [
  { value: 'true', label: 'form.yes' },
  { value: 'false', label: 'form.no' },
]

/** A select filter's options: each value labelled by the key `<prefix>.<value>`. */
export const optionsOf = (values: readonly string[], prefix: string) => values.map((value) => ({ value, label: `${prefix}.${value}` }))
