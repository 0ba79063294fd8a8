import { createRemixStub } from '@remix-run/testing'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { EntityTable } from '~/components/ui/entity-table'
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
  const q: ListQuery = { limit: 25, offset: 0, like: '', order: '', ...query }
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
