import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { Link, useLocation } from '@remix-run/react'
import { describe, expect, it } from 'vitest'
import { columnsKey, EntityTable } from '~/components/ui/entity-table'
import realmList from '~/lists/realm'
import type { ListPage, ListQuery } from '#shared/schemas/common'

type Row = { code: string; name: string; canonical_name: string; parent_code: string | null; created_at: string }
const rows: Row[] = Array.from({ length: 25 }, (_, i) => ({
  code: `r${i}`,
  name: `Realm ${i}`,
  canonical_name: `Canonical ${i}`,
  parent_code: i ? 'r0' : null,
  created_at: '2026-11-01T10:00:00.000Z',
}))

function renderTable(page: ListPage<Row>, query: Partial<ListQuery> = {}, url = '/realm') {
  const q: ListQuery = { limit: 25, offset: 0, like: '', order: '', after: '', before: '', last: false, ...query }
  const Stub = createRemixStub([{ path: '/realm', Component: () => <EntityTable spec={realmList} page={page} query={q} title="Realms" /> }])
  render(<Stub initialEntries={[url]} />)
}

describe('EntityTable', () => {
  it('renders the page with its columns, range and paging links', () => {
    renderTable({ items: rows, total: 60, limit: 25, offset: 0 }, {}, '/realm?like=r')
    const table = screen.getByRole('table')
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent?.trim()),
    ).toEqual(['Código', 'Nome', 'Nome canônico', 'Domínio pai', 'Criado em'])
    expect(within(table).getAllByRole('row')).toHaveLength(26)
    expect(screen.getByText('1–25 de 60')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Próxima página' }).getAttribute('href')).toBe('/realm?like=r&offset=25')
    expect(screen.queryByRole('link', { name: 'Página anterior' })).toBeNull()
  })

  it('offers server-side sorting through the URL and marks the sorted column', () => {
    renderTable({ items: rows.slice(0, 2), total: 2, limit: 25, offset: 0 }, { order: 'code' }, '/realm?order=code')
    const code = screen.getByRole('columnheader', { name: /Código/ })
    expect(code.getAttribute('aria-sort')).toBe('ascending')
    expect(within(code).getByRole('link').getAttribute('href')).toBe('/realm?order=-code&offset=0')
    expect(screen.getByRole('columnheader', { name: /Nome canônico/ }).getAttribute('aria-sort')).toBe('none')
  })

  it('pages by cursor: next and previous carry the row cursor and the position shown; first and last pages', () => {
    renderTable({ items: rows, total: 60, limit: 25, offset: 25, next: 'N1', prev: 'P1' }, { offset: 25 }, '/realm?after=X&offset=25&order=name')
    expect(screen.getByText('26–50 de 60')).toBeTruthy()
    const href = (name: string) => screen.getByRole('link', { name }).getAttribute('href')
    expect(href('Próxima página')).toBe('/realm?after=N1&offset=50&order=name')
    // The page before the second one is the first: no cursor.
    expect(href('Página anterior')).toBe('/realm?order=name')
    expect(href('Primeira página')).toBe('/realm?order=name')
    expect(href('Última página')).toBe('/realm?order=name&last=1')
  })

  it('pages back from a later page with the before cursor; on the last page next and last are disabled', () => {
    renderTable({ items: rows.slice(0, 10), total: 60, limit: 25, offset: 50, next: null, prev: 'P2' }, { offset: 50 }, '/realm?last=1')
    expect(screen.getByText('51–60 de 60')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Página anterior' }).getAttribute('href')).toBe('/realm?before=P2&offset=25')
    expect(screen.queryByRole('link', { name: 'Próxima página' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Última página' })).toBeNull()
  })

  it('says "more than" when the count stopped at its cap, and offers no last page then', () => {
    renderTable({ items: rows, total: 10_000, total_capped: true, limit: 25, offset: 0, next: 'N1', prev: null })
    expect(screen.getByText('1–25 de mais de 10.000')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Próxima página' })).toBeTruthy()
    expect(screen.queryByRole('link', { name: 'Última página' })).toBeNull()
    expect(screen.queryByRole('link', { name: 'Primeira página' })).toBeNull()
  })

  it('shows the empty state', () => {
    renderTable({ items: [], total: 0, limit: 25, offset: 0 })
    expect(screen.getByText('Nenhum registro encontrado.')).toBeTruthy()
    expect(screen.getByText('0–0 de 0')).toBeTruthy()
  })

  it('links the CSV export to the current query, without paging', () => {
    renderTable(
      { items: rows.slice(0, 1), total: 1, limit: 50, offset: 50 },
      { limit: 50, offset: 50, like: 'x', order: '-name' },
      '/realm?limit=50&offset=50&like=x&order=-name',
    )
    expect(screen.getByRole('link', { name: /Exportar CSV/ }).getAttribute('href')).toBe('/export/realm?like=x&order=-name')
    expect((screen.getByRole('combobox', { name: 'Linhas por página' }) as unknown as { value: string }).value).toBe('50')
  })
})

describe('EntityTable keyboard and reach', () => {
  /** The table on a route that also shows where the app went (the search it navigated to). */
  function renderTracked(url = '/realm') {
    const Where = () => {
      const location = useLocation()
      return <output data-testid="where">{location.search}</output>
    }
    const q: ListQuery = { limit: 25, offset: 0, like: '', order: '', after: '', before: '', last: false }
    const Stub = createRemixStub([
      {
        path: '/realm',
        Component: () => (
          <>
            <EntityTable
              spec={realmList}
              page={{ items: rows, total: 60, limit: 25, offset: 0 }}
              query={q}
              title="Realms"
              rowActions={() => <button type="button">Editar</button>}
            />
            <Where />
          </>
        ),
      },
    ])
    render(<Stub initialEntries={[url]} />)
  }

  it('sorts a sortable header with Space, and says the sort state with aria-sort', async () => {
    renderTracked()
    const header = screen.getByRole('columnheader', { name: /Código/ })
    expect(header.getAttribute('aria-sort')).toBe('none')
    fireEvent.keyDown(within(header).getByRole('link'), { key: ' ' })
    await waitFor(() => expect(screen.getByTestId('where').textContent).toContain('order=code'))
  })

  it('changes the page size on commit only: arrow keys do not load a page, Enter does', async () => {
    renderTracked()
    const select = screen.getByRole('combobox', { name: /Linhas por página/ })
    fireEvent.keyDown(select, { key: 'ArrowDown' })
    fireEvent.change(select, { target: { value: '50' } })
    await new Promise((r) => setTimeout(r, 20))
    expect(screen.getByTestId('where').textContent).not.toContain('limit=50')
    fireEvent.keyDown(select, { key: 'Enter' })
    await waitFor(() => expect(screen.getByTestId('where').textContent).toContain('limit=50'))
  })

  it('keeps the first column and the row actions sticky', () => {
    renderTracked()
    const table = screen.getByRole('table')
    const first = within(table).getAllByRole('row')[1].querySelectorAll('td')
    expect(first[0].className).toContain('sticky-first')
    expect(first[first.length - 1].className).toContain('sticky-actions')
    expect(within(table).getAllByRole('columnheader')[0].className).toContain('sticky-first')
  })
})

describe('EntityTable column picker and focus return', () => {
  const q: ListQuery = { limit: 25, offset: 0, like: '', order: '', after: '', before: '', last: false }
  const page = { items: rows.slice(0, 5), total: 5, limit: 25, offset: 0 }

  /** The list and an edit page reached from its rows' links, with a link back (as the console's edit screens have). */
  function renderWithEdit() {
    const Stub = createRemixStub([
      {
        path: '/realm',
        Component: () => (
          <EntityTable
            spec={realmList}
            page={page}
            query={q}
            title="Realms"
            rowActions={(row) => <Link to={`/realm/edit/${row.code}`}>Editar {row.code}</Link>}
          />
        ),
      },
      { path: '/realm/edit/:code', Component: () => <Link to="/realm">Voltar</Link> },
    ])
    return render(<Stub initialEntries={['/realm']} />)
  }
  const headers = () =>
    within(screen.getByRole('table'))
      .getAllByRole('columnheader')
      .map((h) => h.textContent?.trim())

  it('hides the columns the user unticks, remembers them per list, and never hides the first column or the row actions', async () => {
    localStorage.clear()
    const { unmount } = renderWithEdit()
    fireEvent.click(screen.getByText('Colunas'))
    const menu = screen.getByRole('group', { name: 'Colunas visíveis' })
    const first = within(menu).getByRole('checkbox', { name: /Código/ }) as HTMLInputElement
    expect(first.disabled && first.checked).toBe(true)
    fireEvent.click(within(menu).getByRole('checkbox', { name: 'Nome canônico' }))
    await waitFor(() => expect(headers()).toEqual(['Código', 'Nome', 'Domínio pai', 'Criado em', 'Ações']))
    // Every body row lost the cell too, and the row actions stay.
    expect(within(screen.getByRole('table')).getAllByRole('row')[1].querySelectorAll('td')).toHaveLength(5)
    expect(JSON.parse(localStorage.getItem(columnsKey('realm'))!)).toEqual(['canonical_name'])
    unmount()

    // Another visit to the list keeps the choice; ticking the column again brings it back and forgets the entry.
    renderWithEdit()
    await waitFor(() => expect(headers()).not.toContain('Nome canônico'))
    fireEvent.click(screen.getByText('Colunas'))
    fireEvent.click(within(screen.getByRole('group', { name: 'Colunas visíveis' })).getByRole('checkbox', { name: 'Nome canônico' }))
    await waitFor(() => expect(headers()).toContain('Nome canônico'))
    expect(localStorage.getItem(columnsKey('realm'))).toBeNull()
  })

  it('ignores a stored choice that would hide the first column', async () => {
    localStorage.setItem(columnsKey('realm'), JSON.stringify(['code', 'name']))
    renderWithEdit()
    await waitFor(() => expect(headers()).toEqual(['Código', 'Nome canônico', 'Domínio pai', 'Criado em', 'Ações']))
    localStorage.clear()
  })

  it('puts focus back on the row that was opened when the user comes back to the list', async () => {
    renderWithEdit()
    fireEvent.click(screen.getByRole('link', { name: 'Editar r3' }))
    fireEvent.click(await screen.findByRole('link', { name: 'Voltar' }))
    const link = await screen.findByRole('link', { name: 'Editar r3' })
    await waitFor(() => expect(document.activeElement).toBe(link))
    // Only once: a later visit to the list does not steal focus again.
    fireEvent.click(screen.getByRole('link', { name: 'Editar r1' }))
    fireEvent.click(await screen.findByRole('link', { name: 'Voltar' }))
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Editar r1' })))
  })

  it('selects rows one by one and the whole page, offering the actions on the selection', () => {
    const q: ListQuery = { limit: 25, offset: 0, like: '', order: '', after: '', before: '', last: false }
    const Stub = createRemixStub([
      {
        path: '/realm',
        Component: () => (
          <EntityTable
            spec={realmList}
            page={{ items: rows.slice(0, 3), total: 3, limit: 25, offset: 0 }}
            query={q}
            title="Realms"
            selectable
            actions={(selected) => <span data-testid="chosen">{selected.join(',')}</span>}
          />
        ),
      },
    ])
    render(<Stub initialEntries={['/realm']} />)
    const all = screen.getByRole('checkbox', { name: 'Selecionar todos desta página' }) as HTMLInputElement
    const row = (code: string) => screen.getByRole('checkbox', { name: `Selecionar ${code}` }) as HTMLInputElement
    expect(screen.getByRole('table').querySelector('tbody tr')?.getAttribute('aria-selected')).toBe('false')
    expect(screen.queryByTestId('chosen')).toBeNull()

    fireEvent.click(row('r1'))
    expect(row('r1').checked).toBe(true)
    expect(all.checked).toBe(false)
    expect(all.indeterminate).toBe(true)
    expect(screen.getByTestId('chosen').textContent).toBe('r1')
    expect(screen.getByRole('table').querySelector('tr[data-row-id="r1"]')?.getAttribute('aria-selected')).toBe('true')

    fireEvent.click(all)
    expect([row('r0'), row('r1'), row('r2')].map((c) => c.checked)).toEqual([true, true, true])
    expect(all.checked).toBe(true)
    expect(all.indeterminate).toBe(false)
    expect(screen.getByTestId('chosen').textContent).toBe('r1,r0,r2')

    fireEvent.click(row('r0'))
    expect(screen.getByTestId('chosen').textContent).toBe('r1,r2')
    fireEvent.click(all)
    expect(all.checked).toBe(true)
    fireEvent.click(all)
    expect([row('r0'), row('r1'), row('r2')].map((c) => c.checked)).toEqual([false, false, false])
    expect(screen.queryByTestId('chosen')).toBeNull()

    fireEvent.click(row('r2'))
    fireEvent.click(screen.getByRole('button', { name: 'Limpar seleção' }))
    expect(row('r2').checked).toBe(false)
  })
})
