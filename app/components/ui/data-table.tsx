import type { ReactNode } from 'react'

/**
 * A plain table of rows (`table.data` in its scrolling wrap) under its column headings, one `<tr>` a row from
 * `children`; with no rows, the `empty` text instead (a `<p>` of class `emptyClass`). The table is named by `label`
 * (aria-label) or by `caption` (read by screen readers only).
 */
export function DataTable<Row>({
  rows,
  columns,
  empty,
  emptyClass = 'empty',
  label,
  caption,
  children,
}: {
  rows: readonly Row[]
  /** The columns' headings. */
  columns: string[]
  empty: ReactNode
  emptyClass?: string
  label?: string
  caption?: string
  children: (row: Row) => ReactNode
}) {
  if (rows.length === 0) return <p className={emptyClass}>{empty}</p>
  return (
    <div className="table-wrap">
      <table className="data" aria-label={label}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c, i) => (
              <th key={i} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows.map(children)}</tbody>
      </table>
    </div>
  )
}
