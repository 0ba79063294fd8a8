import { isoToZoned } from '~/lib/zoned-time'

/** Time zone lists show dates in: the realms' default (seed 000 §3); forms use the realm's own. */
export const LIST_TIME_ZONE = 'America/Sao_Paulo'

/** `YYYY-MM-DD HH:mm` in the list time zone, for the screen and CSV alike. */
export const when = (v: unknown) => (typeof v === 'string' && v ? isoToZoned(v, LIST_TIME_ZONE).replace('T', ' ') : '')
/**
 * "Updated" column: the row's `updated_at` only when it changed after its creation (creation stamps both dates with
 * one instant), else empty; "new" is its `created_at` shown with `when`.
 */
export const whenUpdated = (v: unknown, row: { created_at?: unknown }) =>
  typeof v === 'string' && typeof row.created_at === 'string' && v > row.created_at ? when(v) : ''
export const joined = (v: unknown) => (Array.isArray(v) ? v.join(', ') : '')

/** A list spec whose select filters get their options at run time (the realm's categories, rooms). */
export function withFilterOptions<S extends { search?: { field: string; options?: { label: string; value: string }[] }[] }>(
  spec: S,
  options: Record<string, { label: string; value: string }[]>,
): S {
  return { ...spec, search: spec.search?.map((d) => (options[d.field] ? { ...d, options: options[d.field] } : d)) }
}
