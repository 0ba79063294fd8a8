import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { DataTable } from '~/components/ui/data-table'

/** The console's plain read tables (persona knowledge, dialogs, transcripts, a task's deliveries). */
describe('DataTable', () => {
  const rows = [
    { id: 'a', name: 'Alfa' },
    { id: 'b', name: 'Beta' },
  ]

  it('shows the headings and one row per item, named by its label', () => {
    render(
      <DataTable rows={rows} columns={['Nome', 'Ações']} empty="Nada" label="Diálogos">
        {(r) => (
          <tr key={r.id}>
            <td>{r.name}</td>
            <td>—</td>
          </tr>
        )}
      </DataTable>,
    )
    const table = screen.getByRole('table', { name: 'Diálogos' })
    const [header, ...body] = within(table).getAllByRole('row')
    expect(
      within(header)
        .getAllByRole('columnheader')
        .map((h) => [h.textContent, h.getAttribute('scope')]),
    ).toEqual([
      ['Nome', 'col'],
      ['Ações', 'col'],
    ])
    expect(body.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['Alfa', 'Beta'])
    expect(screen.queryByText('Nada')).toBeNull()
  })

  it('names the table by a caption for screen readers when given one', () => {
    render(
      <DataTable rows={rows} columns={['Nome']} empty="Nada" caption="2 entregas">
        {(r) => (
          <tr key={r.id}>
            <td>{r.name}</td>
          </tr>
        )}
      </DataTable>,
    )
    const caption = screen.getByRole('table', { name: '2 entregas' }).querySelector('caption')
    expect(caption?.className).toBe('sr-only')
  })

  it('shows the empty text with its class instead of a table when there are no rows', () => {
    render(
      <DataTable rows={[] as typeof rows} columns={['Nome']} empty="Nenhum diálogo" emptyClass="empty card" label="Diálogos">
        {(r) => (
          <tr key={r.id}>
            <td>{r.name}</td>
          </tr>
        )}
      </DataTable>,
    )
    expect(screen.queryByRole('table')).toBeNull()
    expect(screen.getByText('Nenhum diálogo').className).toBe('empty card')
  })
})
