import { createElement, type ReactNode } from 'react'
import { abbreviate, numberFormat } from './format'

/**
 * Credits on screen: abbreviated (k, mi, bi, tri; seed 000 §9) with the exact figure in the title. CSV exports use
 * the column's `format` (the exact number) instead.
 */
export function pointsCell(value: number, locale: string): ReactNode {
  return createElement('span', { title: numberFormat(locale).format(value) }, abbreviate(value, locale))
}

/**
 * A price key on screen: its translated label (`ledger.content_key.<key>`, every system key has one) with the key
 * itself beside it; a realm's own key, which has no translation, shows as the key alone. CSV keeps the key.
 */
export function contentKeyLabel(key: string, t: (key: string, options?: Record<string, unknown>) => string): string {
  return t(`ledger.content_key.${key}`, { defaultValue: '' })
}

export function contentKeyCell(key: string, t: (key: string, options?: Record<string, unknown>) => string): ReactNode {
  const label = contentKeyLabel(key, t)
  if (!label) return createElement('code', null, key)
  return createElement('span', null, label, ' ', createElement('code', { className: 'hint' }, key))
}
