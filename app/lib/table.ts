import type { TFunction } from '~/i18n/translator'
import type { ReactNode } from 'react'
import type { Clock } from './format'

/** Table column spec (seed 000 §3): shared by the on-screen table and the CSV export. */
export interface TableColumn<Row> {
  id: keyof Row & string
  /** i18n key of the header. */
  label: string
  align?: 'left' | 'center' | 'right'
  width?: number | string
  minWidth?: number | string
  /** Sortable on the server (the field must be sortable in its entity descriptor). */
  sorting?: boolean
  /** i18n key of a hint shown beside the header. */
  info?: string
  ellipsis?: boolean
  /** Shows the full value as a tooltip (with ellipsis). */
  tooltip?: boolean
  /**
   * Text of a cell, for the screen and for CSV; defaults to the value as text. `clock` (realm time zone, page
   * language) is given on screen only: times format with it there and stay ISO 8601 UTC in CSV.
   */
  format?: (value: Row[keyof Row], row: Row, t: TFunction, clock?: Clock) => string
  /** The column shows instants (the table then names the time zone once, under it). */
  time?: boolean
  /** i18n key of the CSV header; defaults to `label`. */
  csv_label?: string
  /** Rich cell for the screen only (links, badges); CSV always uses `format`. */
  render?: (row: Row, t: TFunction) => ReactNode
}

export function cellText<Row>(column: TableColumn<Row>, row: Row, t: TFunction, clock?: Clock): string {
  const value = row[column.id]
  if (column.format) return column.format(value, row, t, clock)
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? '✓' : ''
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

function csvCell(text: string): string {
  // Cells that a spreadsheet would run as formulas are prefixed with a quote (CSV injection).
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text
  return /[",\n\r;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** CSV text (RFC 4180, CRLF, UTF-8 BOM for spreadsheets) of rows under the given columns. */
export function toCsv<Row>(columns: TableColumn<Row>[], rows: Row[], t: TFunction): string {
  const header = columns.map((c) => csvCell(t(c.csv_label ?? c.label)))
  const lines = rows.map((row) => columns.map((c) => csvCell(cellText(c, row, t))).join(','))
  return `\uFEFF${[header.join(','), ...lines].join('\r\n')}\r\n`
}
