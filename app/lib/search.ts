import { readDate } from './dates'

/** Search descriptor (seed 000 §3): one field of a list's search bar. */
export interface SearchDescriptor {
  field: string
  type: 'text' | 'number' | 'date' | 'select' | 'modal' | 'chip' | 'none'
  /** i18n key of the label. */
  label: string
  placeholder?: string
  /** Options of select and modal fields; labels are i18n keys or plain text. */
  options?: { label: string; value: string }[]
  /** Fixed value of a `none` field (not editable, always sent). */
  value?: string
  /** Longest chip (default 20, seed 000 §9). */
  chipMax?: number
  /** Shortest accepted text (e.g. 3 for user search, seed 002 §5). */
  minLength?: number
}

export const CHIP_MAX = 20

/** Number fields keep digits only (seed 000 §5). */
export function sanitizeNumber(value: string): string {
  return value.replace(/\D+/g, '')
}

/** A chip value without spaces, at most `max` characters (seed 000 §5, §9). */
export function sanitizeChip(value: string, max = CHIP_MAX): string {
  return value.replace(/\s+/g, '').slice(0, max)
}

/** Today in the user's calendar as YYYY-MM-DD (the latest date a search may use). */
export function today(): string {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** The query parameters a field contributes: dates contribute `<field>_from` and `<field>_to`. */
export function paramsOf(d: SearchDescriptor): string[] {
  return d.type === 'date' ? [`${d.field}_from`, `${d.field}_to`] : [d.field]
}

/**
 * Rules of seed 000 §5 for a search: dates readable in the page language's format (or ISO) and not in the future,
 * numbers digits only, minimum lengths, and at least one field filled (a `none` field does not count). Returns
 * field → message key; empty when valid.
 */
export function validateSearch(descriptors: SearchDescriptor[], values: Record<string, string>, now = today(), locale = 'pt-BR'): Record<string, string> {
  const errors: Record<string, string> = {}
  let filled = false
  for (const d of descriptors) {
    if (d.type === 'none') continue
    for (const param of paramsOf(d)) {
      const value = (values[param] ?? '').trim()
      if (!value) continue
      filled = true
      if (d.type === 'date') {
        const date = readDate(value, locale)
        if (!date) errors[param] = 'validation.date_format'
        else if (date > now) errors[param] = 'validation.future_date'
      }
      if (d.type === 'number' && !/^\d+$/.test(value)) errors[param] = 'validation.digits'
      if (d.minLength && value.length < d.minLength) errors[param] = 'validation.min_search'
    }
  }
  if (!filled) errors.form = 'validation.search_empty'
  return errors
}

/** A date filter's value as the API takes it (`YYYY-MM-DD`); what cannot be read goes on as typed (the API refuses it). */
export function dateParam(value: string, locale: string): string {
  return readDate(value, locale) ?? value
}
