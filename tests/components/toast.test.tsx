import { act, fireEvent, render, screen } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { TOAST_TIMEOUT_MS, ToastProvider, useResultToast, useToast, type ToastInput } from '~/components/ui/toast'
import type { ErrorItem } from '#shared/schemas/error'

function Pusher({ toast }: { toast: ToastInput }) {
  const api = useToast()
  return (
    <button type="button" onClick={() => api.push(toast)}>
      push
    </button>
  )
}

function Errors({ silent }: { silent?: boolean }) {
  const api = useToast()
  return (
    <button
      type="button"
      onClick={() => api.pushErrors([{ field: 'role', cause: 'in_use', value: 3, message: 'Role teacher is held by 3 user(s).' }], { silent })}
    >
      fail
    </button>
  )
}

describe('toasts', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('close after 5000 ms, top-right', () => {
    render(
      <ToastProvider>
        <Pusher toast={{ kind: 'success', message: 'resources.role.deleted' }} />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByText('push'))
    expect(screen.getByRole('status').textContent).toContain('Perfil excluído.')
    expect(screen.getByRole('status').closest('.toast-top-right')).not.toBeNull()
    expect(TOAST_TIMEOUT_MS).toBe(5000)
    act(() => vi.advanceTimersByTime(4900))
    expect(screen.queryByRole('status')).not.toBeNull()
    act(() => vi.advanceTimersByTime(200))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('render the server’s toasts in the first render (a flash after a no-script redirect), then close as usual', () => {
    const html = renderToString(
      <ToastProvider initial={[{ kind: 'success', message: 'resources.role.deleted' }]}>
        <p>page</p>
      </ToastProvider>,
    )
    expect(html).toContain('Perfil excluído.')
    expect(html).toContain('role="status"')
    render(
      <ToastProvider initial={[{ kind: 'success', message: 'resources.role.deleted' }]}>
        <Pusher toast={{ kind: 'info', message: 'resources.role.deleted' }} />
      </ToastProvider>,
    )
    expect(screen.getAllByRole('status')).toHaveLength(1)
    fireEvent.click(screen.getByText('push'))
    expect(screen.getAllByRole('status')).toHaveLength(2)
    act(() => vi.advanceTimersByTime(5100))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('pause while hovered and resume with the time left', () => {
    render(
      <ToastProvider>
        <Pusher toast={{ kind: 'info', message: 'hello' }} />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByText('push'))
    act(() => vi.advanceTimersByTime(3000))
    fireEvent.mouseEnter(screen.getByRole('status'))
    act(() => vi.advanceTimersByTime(10_000))
    expect(screen.queryByRole('status')).not.toBeNull()
    fireEvent.mouseLeave(screen.getByRole('status'))
    act(() => vi.advanceTimersByTime(1900))
    expect(screen.queryByRole('status')).not.toBeNull()
    act(() => vi.advanceTimersByTime(200))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('show every error of a failed call (cause, field, value, message), unless the call is silent', () => {
    const { rerender } = render(
      <ToastProvider>
        <Errors />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByText('fail'))
    const alert = screen.getByRole('alert')
    expect(alert.textContent).toContain('Não foi possível concluir')
    expect(alert.textContent).toContain('Ainda em uso; não pode ser removido.')
    // The field by its translated name, never the internal one.
    expect(alert.textContent).toContain('Perfil de acesso')
    expect(alert.textContent).toContain('3')
    expect(alert.textContent).toContain('Role teacher is held by 3 user(s).')
    fireEvent.click(screen.getByRole('button', { name: 'Fechar notificação' }))
    rerender(
      <ToastProvider>
        <Errors silent />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByText('fail'))
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it("put an error's value into its translated message (a key with {{value}})", () => {
    function Owner() {
      const api = useToast()
      return (
        <button
          type="button"
          onClick={() => api.pushErrors([{ field: 'nick', cause: 'in_use', value: 'Aulas do 9º ano', message: 'channel.owner_cannot_be_deleted' }])}
        >
          fail
        </button>
      )
    }
    render(
      <ToastProvider>
        <Owner />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByText('fail'))
    const text = screen.getByRole('alert').textContent ?? ''
    expect(text).toContain('É dono dos canais Aulas do 9º ano: passe a propriedade')
    expect(text).not.toContain('{{')
  })

  it('tell the result of a row action once its fetcher is back: success, or the errors under their title', () => {
    function Result({ fetcher }: { fetcher: { state: string; data?: { ok: boolean; errors: ErrorItem[] } } }) {
      useResultToast(fetcher, 'resources.role.deleted', 'resources.role.delete_failed')
      return null
    }
    const failed = { ok: false, errors: [{ field: 'role', cause: 'in_use', value: 3, message: 'Role teacher is held by 3 user(s).' }] }
    const { rerender } = render(
      <ToastProvider>
        <Result fetcher={{ state: 'submitting' }} />
      </ToastProvider>,
    )
    expect(screen.queryByRole('status')).toBeNull()
    rerender(
      <ToastProvider>
        <Result fetcher={{ state: 'idle', data: { ok: true, errors: [] } }} />
      </ToastProvider>,
    )
    expect(screen.getByRole('status').textContent).toContain('Perfil excluído.')
    rerender(
      <ToastProvider>
        <Result fetcher={{ state: 'idle', data: failed }} />
      </ToastProvider>,
    )
    expect(screen.getByRole('alert').textContent).toContain('Ainda em uso; não pode ser removido.')
  })
})
