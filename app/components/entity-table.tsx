import { Form, Link, useLocation, useNavigation, useSearchParams } from '@remix-run/react'
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type SortingState } from '@tanstack/react-table'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { ListSpec } from '~/lib/lists'
import { Icon, type IconName } from './icon'
import { cellText } from '~/lib/table'
import { PAGE_SIZES, type ListPage, type ListQuery } from '~/schemas/common'

function orderToSorting(order: string): SortingState {
  if (!order) return []
  return [{ id: order.replace(/^-/, ''), desc: order.startsWith('-') }]
}

/**
 * The console's data table: server-side paging (25/50/100), sorting and search, all kept in the URL so a list
 * can be linked, reloaded and used without JavaScript; CSV export of the current query.
 */
export function EntityTable<Row>({ spec, page, query, title }: { spec: ListSpec<Row>; page: ListPage<Row>; query: ListQuery; title: string }) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const location = useLocation()
  const [params] = useSearchParams()
  const loading = navigation.state === 'loading' && navigation.location?.pathname === location.pathname

  const withParams = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params)
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k)
      else next.set(k, String(v))
    }
    return `?${next.toString()}`
  }

  const columns = useMemo<ColumnDef<Row>[]>(
    () =>
      spec.columns.map((c) => ({
        id: c.id,
        accessorFn: (row: Row) => row[c.id],
        header: () => t(c.label),
        enableSorting: Boolean(c.sorting),
        cell: ({ row }) => (c.render ? c.render(row.original, t) : cellText(c, row.original, t)),
        meta: c,
      })),
    [spec, t],
  )

  const table = useReactTable({
    data: page.items,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    rowCount: page.total,
    state: { sorting: orderToSorting(query.order) },
    getRowId: (row) => spec.rowId(row),
  })

  const from = page.total === 0 ? 0 : page.offset + 1
  const to = Math.min(page.offset + page.items.length, page.total)
  const exportHref = `/export/${spec.name}${withParams({ limit: null, offset: null })}`

  return (
    <section aria-labelledby="list-title">
      <div className="table-toolbar">
        <Form method="get" role="search" aria-label={t('table.search')}>
          <input type="hidden" name="limit" value={query.limit} />
          {query.order ? <input type="hidden" name="order" value={query.order} /> : null}
          <label htmlFor="list-search" className="visually-hidden">
            {t('table.search')}
          </label>
          <input id="list-search" className="input" type="search" name="like" defaultValue={query.like} placeholder={t('table.search.placeholder')} />
          <button type="submit" className="btn">
            {t('table.search.submit')}
          </button>
        </Form>
        <a className="btn" href={exportHref} download>
          <Icon name="download" /> {t('table.export_csv')}
        </a>
      </div>
      <div className="table-wrap" aria-busy={loading}>
        <table className="data" aria-labelledby="list-title" aria-rowcount={page.total + 1}>
          <caption className="visually-hidden" id="list-caption">
            {title}
          </caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const spec = header.column.columnDef.meta as { align?: 'left' | 'center' | 'right'; width?: number | string; minWidth?: number | string } | undefined
                  const sorted = header.column.getIsSorted()
                  const nextOrder = sorted === 'asc' ? `-${header.column.id}` : header.column.id
                  return (
                    <th
                      key={header.id}
                      scope="col"
                      style={{ textAlign: spec?.align, width: spec?.width, minWidth: spec?.minWidth }}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : header.column.getCanSort() ? 'none' : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <Link to={withParams({ order: nextOrder, offset: 0 })} preventScrollReset>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <Icon name={sorted === 'asc' ? 'sortAsc' : sorted === 'desc' ? 'sortDesc' : 'sort'} size={16} />
                          {sorted ? <span className="visually-hidden">, {t(sorted === 'asc' ? 'table.sort.asc' : 'table.sort.desc')}</span> : null}
                        </Link>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  )
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.length === 0 ? (
              <tr>
                <td className="empty" colSpan={spec.columns.length}>
                  {t('table.empty')}
                </td>
              </tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => {
                    const c = cell.column.columnDef.meta as { align?: 'left' | 'center' | 'right'; ellipsis?: boolean; tooltip?: boolean } | undefined
                    const text = cellText(spec.columns.find((x) => x.id === cell.column.id)!, row.original, t)
                    return (
                      <td key={cell.id} style={{ textAlign: c?.align }} className={c?.ellipsis ? 'ellipsis' : undefined} title={c?.tooltip ? text : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    )
                  })}
                </tr>
              ))
            )}
          </tbody>
        </table>
        {loading ? (
          <p role="status" className="visually-hidden">
            {t('table.loading')}
          </p>
        ) : null}
      </div>
      <div className="table-footer">
        <Form method="get">
          {query.like ? <input type="hidden" name="like" value={query.like} /> : null}
          {query.order ? <input type="hidden" name="order" value={query.order} /> : null}
          <label>
            {t('table.rows_per_page')}
            <select className="input" name="limit" defaultValue={query.limit} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
              {PAGE_SIZES.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <noscript>
            <button className="btn" type="submit">
              {t('table.rows_per_page')}
            </button>
          </noscript>
        </Form>
        <span aria-live="polite">{t('table.range', { from, to, total: page.total })}</span>
        <nav aria-label={t('table.rows_per_page')} style={{ display: 'flex', gap: '.25rem' }}>
          <PageLink disabled={page.offset === 0} to={withParams({ offset: Math.max(0, page.offset - page.limit) })} label={t('table.previous')} icon="chevronLeft" />
          <PageLink disabled={page.offset + page.limit >= page.total} to={withParams({ offset: page.offset + page.limit })} label={t('table.next')} icon="chevronRight" />
        </nav>
      </div>
    </section>
  )
}

function PageLink({ disabled, to, label, icon }: { disabled: boolean; to: string; label: string; icon: IconName }) {
  if (disabled) {
    return (
      <span className="btn btn-icon" aria-disabled="true" title={label}>
        <Icon name={icon} label={label} />
      </span>
    )
  }
  return (
    <Link className="btn btn-icon" to={to} title={label} preventScrollReset>
      <Icon name={icon} label={label} />
    </Link>
  )
}
