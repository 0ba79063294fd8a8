import { createElement, type ReactNode } from 'react'
import { abbreviate } from './format'

/**
 * Credits on screen: abbreviated (k, mi, bi, tri; seed 000 §9) with the exact figure in the title. CSV exports use
 * the column's `format` (the exact number) instead.
 */
export function pointsCell(value: number, locale: string): ReactNode {
  return createElement('span', { title: new Intl.NumberFormat(locale).format(value) }, abbreviate(value, locale))
}
