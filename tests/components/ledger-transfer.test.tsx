import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ToastProvider, fieldLabel } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import { Translator } from '~/i18n/translator'
import TransferRoute from '~/routes/_console+/ledger+/transfer.create'

/** The transfer screen reviews only transfers the API can accept, and never names a field by its internal path. */

const pt = catalogues['pt-BR']

function renderTransfer() {
  const Stub = createRemixStub([
    {
      path: '/ledger/transfer/create',
      Component: TransferRoute,
      loader: () => ({ wallets: [{ owner: 'manager', kind: 'user', name: 'Gestora', points: 5000 }], actionKey: 'con-test', timeZone: 'America/Sao_Paulo' }),
      // The action's review answer: the form kept, the figures the confirmation names.
      action: () => ({ status: 'success', initialValue: {}, review: { total: 10, count: 2, points: 5, targets: 'teacher, root', realm: '' } }),
    },
  ])
  render(
    <ToastProvider>
      <Stub initialEntries={['/ledger/transfer/create']} />
    </ToastProvider>,
  )
}

describe('transfer review', () => {
  it('keeps the points as typed and refuses an invalid recipient and a total over the balance before the review', async () => {
    renderTransfer()
    const targets = await screen.findByLabelText(pt['ledger.transfer.targets'], { exact: false })
    const points = screen.getByLabelText(pt['ledger.transfer.points'], { exact: false }) as HTMLInputElement
    fireEvent.change(targets, { target: { value: 'teacher !!!' } })
    fireEvent.change(points, { target: { value: '-5' } })
    expect(points.value).toBe('-5')
    fireEvent.change(points, { target: { value: '99999999' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: pt['ledger.transfer.submit'] })))
    expect(screen.queryByRole('dialog')).toBeNull()
    const page = document.body.textContent ?? ''
    expect(page).toContain('“!!!” não é um usuário válido')
    expect(page).toContain('passa do saldo da carteira (5.000)')
    expect(page).not.toContain('targets.')
    // The error summary names the fields by their labels, and focus is on the first invalid field.
    const summary = screen.getByRole('alert')
    expect(summary.textContent).toContain(pt['ledger.transfer.targets'])
    expect(summary.textContent).toContain(pt['ledger.transfer.points'])
    expect(document.activeElement).toBe(targets)

    fireEvent.change(targets, { target: { value: 'teacher root' } })
    fireEvent.change(points, { target: { value: '5' } })
    await act(async () => fireEvent.click(screen.getByRole('button', { name: pt['ledger.transfer.submit'] })))
    const dialog = await screen.findByRole('dialog', { name: pt['ledger.transfer.confirm_title'] })
    expect(dialog.textContent).toContain('teacher, root')
  })

  it('names error fields in the toast by their translated label, or not at all', () => {
    const t = new Translator('pt-BR', catalogues['pt-BR']).t
    expect(fieldLabel(t, 'targets.0')).toBe('Destinatário 1')
    expect(fieldLabel(t, 'points')).toBe('Créditos')
    expect(fieldLabel(t, 'x-api-key')).toBe('')
    expect(fieldLabel(t, 'internal_thing.3')).toBe('')
  })
})
