import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { BarChart } from '~/components/ui/bar-chart'
import { CreditBalance } from '~/components/shell/credit-balance'
import { ToastProvider } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import { PackageForm } from '~/routes/_console+/ledger+/__ledger-package-form'
import { TotalRequired } from '~/routes/_console+/ledger+/__ledger-movement-ui'

const pt = catalogues['pt-BR']

describe('BarChart', () => {
  it('is one named, described image with a legend, each bar carrying its value', () => {
    const { container } = render(
      <BarChart
        title="Créditos no período"
        summary="Gráfico de barras com 2 linhas"
        labels={['2026-01', '2026-02']}
        series={[
          { key: 'purchased', label: 'Comprado' },
          { key: 'consumed', label: 'Consumido' },
        ]}
        values={[
          [100, 0],
          [20, 40],
        ]}
        format={String}
      />,
    )
    const img = screen.getByRole('img', { name: /Créditos no período/ })
    expect(img.getAttribute('aria-labelledby')?.split(' ')).toHaveLength(2)
    expect(screen.getByText('Gráfico de barras com 2 linhas')).toBeTruthy()
    expect([...container.querySelectorAll('rect title')].map((t) => t.textContent)).toEqual([
      'Comprado · 2026-01: 100',
      'Consumido · 2026-01: 20',
      'Comprado · 2026-02: 0',
      'Consumido · 2026-02: 40',
    ])
    expect(screen.getByText('Consumido')).toBeTruthy()
    // The tallest bar fills the plot; a zero bar has no height.
    const heights = [...container.querySelectorAll('rect')].map((r) => Number(r.getAttribute('height')))
    expect(heights[0]).toBe(180)
    expect(heights[2]).toBe(0)
  })
})

describe('TotalRequired', () => {
  it('announces the total and warns when it exceeds the balance', () => {
    const { rerender } = render(<TotalRequired total={30} balance={50} />)
    expect(screen.getByRole('status').textContent).toContain('Total necessário: 30')
    expect(screen.queryByText(pt['errors.insufficient_credits'])).toBeNull()
    rerender(<TotalRequired total={60} balance={50} />)
    expect(screen.getByText(pt['errors.insufficient_credits'])).toBeTruthy()
  })
})

describe('PackageForm', () => {
  function renderForm() {
    const sent: FormData[] = []
    const Stub = createRemixStub([
      {
        path: '/ledger/package/create',
        Component: () => <PackageForm timeZone="America/Sao_Paulo" />,
        action: async ({ request }) => {
          sent.push(await request.formData())
          return { ok: true, errors: [] }
        },
      },
    ])
    render(
      <ToastProvider>
        <Stub initialEntries={['/ledger/package/create']} />
      </ToastProvider>,
    )
    return sent
  }

  it('validates live with the API schema and blocks an invalid submission', async () => {
    const sent = renderForm()
    const cost = screen.getByLabelText(pt['resources.ledger_package.fields.cost'], { exact: false })
    fireEvent.change(cost, { target: { value: 'dez reais' } })
    fireEvent.blur(cost)
    expect(await screen.findByText(pt['ledger.validation.cost'])).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: pt['ledger.save'] }))
    const name = screen.getByLabelText(pt['resources.ledger_package.fields.name'], { exact: false })
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'))
    // The error summary names the fields by their labels; focus is on the first invalid one.
    expect(screen.getByRole('alert').textContent).toContain(pt['resources.ledger_package.fields.name'])
    expect(document.activeElement).toBe(name)
    expect(sent).toHaveLength(0)
  })

  it('previews a cost typed with a comma in its currency, and sends the form when valid', async () => {
    const sent = renderForm()
    const label = (key: string) => screen.getByLabelText(pt[`resources.ledger_package.fields.${key}`], { exact: false })
    // Input events, as typing sends (the kit follows the form's values through them).
    fireEvent.input(label('name'), { target: { value: 'Pacote' } })
    fireEvent.input(label('cost'), { target: { value: '1.499,9' } })
    fireEvent.input(label('points'), { target: { value: '20000' } })
    expect(await screen.findByText(/Preço: R\$\s1\.499,90/)).toBeTruthy()
    expect((label('points') as HTMLInputElement).value).toBe('20000')
    fireEvent.click(screen.getByRole('button', { name: pt['ledger.save'] }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(Object.fromEntries(sent[0])).toMatchObject({ name: 'Pacote', cost: '1.499,9', currency: 'BRL', points: '20000', enabled: 'on' })
  })
})

describe('CreditBalance', () => {
  it('shows the loader balance, then reads /wallet again when the tab becomes visible', async () => {
    let reads = 0
    const Stub = createRemixStub([
      { path: '/', Component: () => <CreditBalance balance={1500} locale="pt-BR" /> },
      {
        path: '/wallet',
        loader: () => {
          reads++
          return { points: 2_500_000 }
        },
      },
    ])
    render(<Stub initialEntries={['/']} />)
    expect((await screen.findByTestId('credit-balance')).textContent).toBe('1,5k')
    expect(reads).toBe(0)
    document.dispatchEvent(new Event('visibilitychange'))
    await waitFor(() => expect(screen.getByTestId('credit-balance').textContent).toBe('2,5mi'))
    expect(reads).toBe(1)
  })
})
