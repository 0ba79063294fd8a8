import { Form, Link, useLocation, useNavigation, useSearchParams } from '@remix-run/react'
import { flexRender, getCoreRowModel, useReactTable, type ColumnDef, type RowSelectionState, type VisibilityState } from '@tanstack/react-table'
import { useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react'
import { useTranslation } from 'react-i18next'
import type { ListSpec } from '~/lib/lists'
import { cellText, type TableColumn } from '~/lib/table'
import { PAGE_SIZES, type ListPage, type ListQuery } from '#shared/schemas/common'
import { numberFormat, zoneName } from '~/lib/format'
import { useClock } from './clock'
import { Icon, type IconName } from './icon'
import { SearchBar } from './search-bar'

export interface EntityTableProps<Row> {
  spec: ListSpec<Row>
  page: ListPage<Row>
  query: ListQuery
  title: string
  /** Rows can be selected (checkbox column); `actions` receives the selected ids. */
  selectable?: boolean
  actions?: (selected: string[], clear: () => void) => ReactNode
  /** Extra cells per row (edit/delete buttons), rendered in a last column. */
  rowActions?: (row: Row) => ReactNode
}

/**
 * The console's data table (seed 000 §3 table column and row): server-side paging (25/50/100), sorting, search
 * and filters, all kept in the URL so a list can be linked, reloaded and used without JavaScript; selectable rows;
 * CSV export of the current query with the same columns and labels.
 */
export function EntityTable<Row>({ spec, page, query, title, selectable, actions, rowActions }: EntityTableProps<Row>) {
  const { t, i18n } = useTranslation()
  const navigation = useNavigation()
  const location = useLocation()
  const [params] = useSearchParams()
  const clock = useClock()
  // The first data column and the row actions stay in view when the table scrolls sideways (1366 px, phones).
  const firstId = spec.columns[0]?.id
  const stickyClass = (id: string | undefined) =>
    id === '__select' ? 'sticky-select' : id === firstId ? (selectable ? 'sticky-first after-select' : 'sticky-first') : undefined
  const tableRef = useRef<HTMLTableElement>(null)
  // After paging, sorting or a new page size asked from this table, focus goes to the table (its caption is read).
  const focusAfterLoad = useRef(false)
  useEffect(() => {
    if (focusAfterLoad.current) {
      focusAfterLoad.current = false
      tableRef.current?.focus()
    }
  }, [page])
  const pageSize = useRef<{ keyboard: boolean }>({ keyboard: false })
  const [hidden, setHidden] = useHiddenColumns(spec.name, firstId)
  const visibility = useMemo<VisibilityState>(() => Object.fromEntries(hidden.map((id) => [id, false])), [hidden])
  const tbodyRef = useRef<HTMLTableSectionElement>(null)
  useFocusReturn(tbodyRef, location.pathname + location.search, page)
  const [selection, setSelection] = useState<RowSelectionState>({})
  const loading = navigation.state === 'loading' && navigation.location?.pathname === location.pathname

  // A new page of rows is a new selection.
  useEffect(() => setSelection({}), [page])

  const commitPageSize = (select: HTMLSelectElement) => {
    pageSize.current.keyboard = false
    if (Number(select.value) === query.limit) return
    focusAfterLoad.current = true
    select.form?.requestSubmit()
  }

  const withParams = (changes: Record<string, string | number | null>) => {
    const next = new URLSearchParams(params)
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') next.delete(k)
      else next.set(k, String(v))
    }
    return `?${next.toString()}`
  }

  const columns = useMemo<ColumnDef<Row>[]>(() => {
    const data: ColumnDef<Row>[] = spec.columns.map((c) => ({
      id: c.id,
      accessorFn: (row: Row) => row[c.id],
      header: () => <span className="th-label">{t(c.label)}</span>,
      enableSorting: Boolean(c.sorting),
      cell: ({ row }) => (c.render ? c.render(row.original, t) : cellText(c, row.original, t, clock)),
      meta: c,
    }))
    if (!selectable) return data
    return [
      {
        id: '__select',
        header: ({ table }) => (
          <input
            type="checkbox"
            aria-label={t('table.select_all')}
            checked={table.getIsAllPageRowsSelected()}
            ref={(el) => {
              if (el) el.indeterminate = table.getIsSomePageRowsSelected()
            }}
            onChange={table.getToggleAllPageRowsSelectedHandler()}
          />
        ),
        cell: ({ row }) => (
          <input type="checkbox" aria-label={t('table.select_row', { name: row.id })} checked={row.getIsSelected()} onChange={row.getToggleSelectedHandler()} />
        ),
      },
      ...data,
    ]
  }, [spec, t, selectable, clock])

  const table = useReactTable({
    data: page.items,
    columns,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    enableRowSelection: Boolean(selectable),
    rowCount: page.total,
    state: { rowSelection: selection, columnVisibility: visibility },
    onRowSelectionChange: setSelection,
    getRowId: (row) => spec.rowId(row),
  })

  const selected = Object.keys(selection).filter((k) => selection[k])
  const sorted = (id: string) => (query.order === id ? 'asc' : query.order === `-${id}` ? 'desc' : false)
  const from = page.total === 0 ? 0 : page.offset + 1
  const to = Math.min(page.offset + page.items.length, page.total)
  const exportHref = `/export/${spec.name}${withParams({ limit: null, offset: null, ...NO_CURSOR })}`
  const paging = pagerLinks(page, withParams)
  const colSpan = columns.length - hidden.length + (rowActions ? 1 : 0)

  return (
    <section aria-label={title}>
      {spec.search ? <SearchBar descriptors={spec.search} keep={['limit', 'order', 'like']} /> : null}
      <div className="table-toolbar">
        <Form method="get" role="search" aria-label={t('table.search')} className="quick-search">
          {[...params.entries()]
            .filter(([k]) => !['like', 'offset'].includes(k))
            .map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
          <label htmlFor="list-search" className="visually-hidden">
            {t('table.search')}
          </label>
          <input
            id="list-search"
            className="input"
            type="search"
            name="like"
            defaultValue={query.like}
            placeholder={t('table.search.placeholder')}
            minLength={spec.likeMinLength}
            title={spec.likeMinLength ? t('validation.min_search', { min: String(spec.likeMinLength) }) : undefined}
          />
          <button type="submit" className="btn">
            <Icon name="search" /> {t('table.search.submit')}
          </button>
        </Form>
        <div className="toolbar-actions">
          {selectable && selected.length ? (
            <>
              <span className="selection-count" role="status">
                {t('table.selected', { count: selected.length })}
              </span>
              {actions?.(selected, () => setSelection({}))}
              <button type="button" className="btn" onClick={() => setSelection({})}>
                {t('table.clear_selection')}
              </button>
            </>
          ) : null}
          <ColumnPicker columns={spec.columns.map((c) => ({ id: c.id, label: t(c.label), locked: c.id === firstId }))} hidden={hidden} onChange={setHidden} />
          <a className="btn" href={exportHref} download>
            <Icon name="download" /> {t('table.export_csv')}
          </a>
        </div>
      </div>
      <div className="table-wrap" aria-busy={loading}>
        <table className="data" ref={tableRef} tabIndex={-1}>
          <caption className="visually-hidden">{title}</caption>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const c = header.column.columnDef.meta as TableColumn<Row> | undefined
                  const direction = c ? sorted(c.id) : false
                  const nextOrder = direction === 'asc' ? `-${header.column.id}` : header.column.id
                  return (
                    <th
                      key={header.id}
                      className={stickyClass(header.column.id)}
                      scope="col"
                      style={{ textAlign: c?.align, width: c?.width ?? (c ? undefined : '2.5rem'), minWidth: c?.minWidth }}
                      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : c?.sorting ? 'none' : undefined}
                    >
                      {c?.sorting ? (
                        <Link
                          to={withParams({ order: nextOrder, offset: 0, ...NO_CURSOR })}
                          preventScrollReset
                          className="sort-link"
                          onClick={() => (focusAfterLoad.current = true)}
                          onKeyDown={(e) => {
                            // A sortable header is a button to its users: Space sorts too (Enter follows the link).
                            if (e.key === ' ') {
                              e.preventDefault()
                              e.currentTarget.click()
                            }
                          }}
                        >
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <Icon name={direction === 'asc' ? 'sortAsc' : direction === 'desc' ? 'sortDesc' : 'sort'} size={16} />
                          {direction ? <span className="visually-hidden">, {t(direction === 'asc' ? 'table.sort.asc' : 'table.sort.desc')}</span> : null}
                        </Link>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                      {c?.info ? (
                        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- focusable so keyboard users can reach the hint
                        <span className="tooltip" tabIndex={0} title={t(c.info)}>
                          <Icon name="info" size={14} label={t(c.info)} />
                        </span>
                      ) : null}
                    </th>
                  )
                })}
                {rowActions ? (
                  <th scope="col" className="sticky-actions">
                    <span className="visually-hidden">{t('table.actions')}</span>
                  </th>
                ) : null}
              </tr>
            ))}
          </thead>
          <tbody ref={tbodyRef}>
            {table.getRowModel().rows.length === 0 ? (
              <tr>
                <td className="empty" colSpan={colSpan}>
                  {t('table.empty')}
                </td>
              </tr>
            ) : (
              table.getRowModel().rows.map((row) => (
                <tr key={row.id} data-row-id={row.id} tabIndex={-1} aria-selected={selectable ? row.getIsSelected() : undefined}>
                  {row.getVisibleCells().map((cell) => {
                    const c = cell.column.columnDef.meta as TableColumn<Row> | undefined
                    // The cell's text again for its tooltip, only where the column has one (the cell renders it too).
                    const text = c?.tooltip ? cellText(c, row.original, t, clock) : undefined
                    return (
                      <td
                        key={cell.id}
                        style={{ textAlign: c?.align }}
                        className={[c?.ellipsis ? 'ellipsis' : '', stickyClass(cell.column.id) ?? ''].filter(Boolean).join(' ') || undefined}
                        title={text}
                      >
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    )
                  })}
                  {rowActions ? <td className="row-actions sticky-actions">{rowActions(row.original)}</td> : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
        {loading ? (
          <p role="status" className="table-loading">
            <span className="spinner" aria-hidden="true" /> {t('table.loading')}
          </p>
        ) : null}
      </div>
      {spec.columns.some((c) => c.time) ? <p className="hint zone-caption">{t('table.time_zone', { zone: zoneName(clock) })}</p> : null}
      <div className="table-footer">
        <Form method="get" className="page-size">
          {[...params.entries()]
            .filter(([k]) => !['limit', 'offset', ...Object.keys(NO_CURSOR)].includes(k))
            .map(([k, v]) => (
              <input key={k} type="hidden" name={k} value={v} />
            ))}
          <label>
            {t('table.rows_per_page')}
            <select
              className="input"
              name="limit"
              defaultValue={query.limit}
              // The page size applies on commit: a pick with the pointer, or Enter / leaving the field after arrow
              // keys (which change the value one step at a time and must not load a page at each step).
              onKeyDown={(e) => {
                if (e.key.startsWith('Arrow') || e.key === 'Home' || e.key === 'End' || e.key === 'PageUp' || e.key === 'PageDown')
                  pageSize.current.keyboard = true
                if (e.key === 'Enter') {
                  e.preventDefault()
                  commitPageSize(e.currentTarget)
                }
              }}
              onChange={(e) => {
                if (!pageSize.current.keyboard) commitPageSize(e.currentTarget)
              }}
              onBlur={(e) => commitPageSize(e.currentTarget)}
            >
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
        <span aria-live="polite">
          {page.total_capped
            ? t('table.range_more', { from, to, total: numberFormat(i18n.language).format(page.total) })
            : t('table.range', { from, to, total: page.total })}
        </span>
        <span className="pager">
          <PageLink
            disabled={paging.first === null}
            to={paging.first ?? ''}
            label={t('table.first')}
            icon="pageFirst"
            onNavigate={() => (focusAfterLoad.current = true)}
          />
          <PageLink
            disabled={paging.prev === null}
            to={paging.prev ?? ''}
            label={t('table.previous')}
            icon="chevronLeft"
            onNavigate={() => (focusAfterLoad.current = true)}
          />
          <PageLink
            disabled={paging.next === null}
            to={paging.next ?? ''}
            label={t('table.next')}
            icon="chevronRight"
            onNavigate={() => (focusAfterLoad.current = true)}
          />
          <PageLink
            disabled={paging.last === null}
            to={paging.last ?? ''}
            label={t('table.last')}
            icon="pageLast"
            onNavigate={() => (focusAfterLoad.current = true)}
          />
        </span>
      </div>
    </section>
  )
}

/** The URL parameters of cursor paging, cleared by a new order, page size or the first page. */
const NO_CURSOR = { after: null, before: null, last: null } as const

/**
 * The pager's links. Lists answered by the list machinery carry cursors (`next`, `prev`): the links ask for the page
 * after or before a row (no large OFFSET), keeping `offset` in the URL only to show the position ("26–50"); the last
 * page reverses the order (`last=1`) and is offered when the count is exact (beyond COUNT_CAP rows, reversing the
 * column's order reaches the end). Lists without cursors page by offset.
 */
export function pagerLinks(page: ListPage<unknown>, withParams: (changes: Record<string, string | number | null>) => string) {
  const cursors = page.next !== undefined || page.prev !== undefined
  const atStart = page.offset === 0 && !page.prev
  const prevOffset = Math.max(0, page.offset - page.limit)
  const first = atStart ? null : withParams({ ...NO_CURSOR, offset: null })
  const prev = atStart
    ? null
    : cursors && page.prev && prevOffset > 0
      ? withParams({ ...NO_CURSOR, before: page.prev, offset: prevOffset })
      : withParams({ ...NO_CURSOR, offset: prevOffset || null })
  const next = cursors
    ? page.next
      ? withParams({ ...NO_CURSOR, after: page.next, offset: page.offset + page.limit })
      : null
    : page.offset + page.limit < page.total
      ? withParams({ offset: page.offset + page.limit })
      : null
  const last =
    next === null || page.total_capped
      ? null
      : cursors
        ? withParams({ ...NO_CURSOR, last: 1, offset: null })
        : withParams({ offset: Math.max(0, Math.ceil(page.total / page.limit) - 1) * page.limit })
  return { first, prev, next, last }
}

function PageLink({ disabled, to, label, icon, onNavigate }: { disabled: boolean; to: string; label: string; icon: IconName; onNavigate?: () => void }) {
  if (disabled) {
    return (
      <span className="btn btn-icon" aria-disabled="true" title={label}>
        <Icon name={icon} label={label} />
      </span>
    )
  }
  return (
    <Link className="btn btn-icon" to={to} title={label} preventScrollReset onClick={onNavigate}>
      <Icon name={icon} label={label} />
    </Link>
  )
}

/** Where the hidden columns of a list are remembered on this device (local storage, one entry per list). */
export const columnsKey = (list: string) => `console.columns.${list}`

/**
 * The columns the user hid on this list, remembered per list in local storage. The server renders every column (it
 * cannot read local storage); the choice applies as soon as the page hydrates. The first column never hides: it names
 * the row.
 */
function useHiddenColumns(list: string, firstId: string | undefined): [string[], (next: string[]) => void] {
  const [hidden, setHidden] = useState<string[]>([])
  useEffect(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(columnsKey(list)) ?? '[]') as unknown
      if (Array.isArray(saved)) setHidden(saved.filter((id): id is string => typeof id === 'string' && id !== firstId))
    } catch {
      // An unreadable entry (edited by hand, old format) means no choice: every column shows.
    }
  }, [list, firstId])
  const update = (next: string[]) => {
    const kept = next.filter((id) => id !== firstId)
    setHidden(kept)
    try {
      if (kept.length) localStorage.setItem(columnsKey(list), JSON.stringify(kept))
      else localStorage.removeItem(columnsKey(list))
    } catch {
      // Storage refused (private mode, quota): the choice holds for this page only.
    }
  }
  return [hidden, update]
}

/** The session-storage entry naming the row opened from a list page (its path and query). */
const returnKey = (at: string) => `console.row-return.${at}`

/** The row opened from this list page, read once (the entry is removed). */
function readReturn(at: string): { row?: string; href?: string } | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(returnKey(at)) ?? 'null') as { row?: string; href?: string } | null
    sessionStorage.removeItem(returnKey(at))
    return saved
  } catch {
    return null
  }
}

/**
 * Opening a row (any link inside it) and coming back puts focus on that row's link again, or on the row itself when
 * the link is gone, instead of the page body: keyboard and screen-reader users continue where they were.
 */
function useFocusReturn(tbody: RefObject<HTMLTableSectionElement>, at: string, page: unknown) {
  useEffect(() => {
    const body = tbody.current
    if (!body) return
    const remember = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest('a[href]')
      const row = link?.closest('tr[data-row-id]')
      if (!link || !row) return
      try {
        sessionStorage.setItem(returnKey(at), JSON.stringify({ row: row.getAttribute('data-row-id'), href: link.getAttribute('href') }))
      } catch {
        // No session storage: focus simply is not returned.
      }
    }
    body.addEventListener('click', remember)
    return () => body.removeEventListener('click', remember)
  }, [tbody, at])
  useEffect(() => {
    const saved = readReturn(at)
    if (!saved?.row || !tbody.current) return
    const row = [...tbody.current.querySelectorAll<HTMLTableRowElement>('tr[data-row-id]')].find((r) => r.dataset.rowId === saved.row)
    if (!row) return
    const link = [...row.querySelectorAll<HTMLAnchorElement>('a[href]')].find((a) => a.getAttribute('href') === saved.href)
    ;(link ?? row).focus()
  }, [tbody, at, page])
}

/**
 * The columns menu: one checkbox per column of the list; the first column is shown always (it names the row), and the
 * row actions are not a column of the list, so neither can be hidden.
 */
export function ColumnPicker({
  columns,
  hidden,
  onChange,
}: {
  columns: { id: string; label: string; locked: boolean }[]
  hidden: string[]
  onChange: (hidden: string[]) => void
}) {
  const { t } = useTranslation()
  const ref = useRef<HTMLDetailsElement>(null)
  // Escape closes the open menu and puts focus back on its button, as with the console's other menus.
  useEffect(() => {
    const details = ref.current
    if (!details) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !details.open) return
      details.open = false
      details.querySelector('summary')?.focus()
    }
    details.addEventListener('keydown', onKey)
    return () => details.removeEventListener('keydown', onKey)
  }, [])
  return (
    <details className="column-picker" ref={ref}>
      <summary className="btn">
        <Icon name="eye" /> {t('table.columns')}
      </summary>
      <fieldset className="column-picker-menu">
        <legend className="visually-hidden">{t('table.columns.legend')}</legend>
        {columns.map((c) => (
          <label key={c.id} className="checkbox">
            <input
              type="checkbox"
              checked={c.locked || !hidden.includes(c.id)}
              disabled={c.locked}
              onChange={(e) => onChange(e.currentTarget.checked ? hidden.filter((id) => id !== c.id) : [...hidden, c.id])}
            />
            {c.label}
            {c.locked ? <span className="visually-hidden"> ({t('table.columns.locked')})</span> : null}
          </label>
        ))}
      </fieldset>
    </details>
  )
}
