import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { LoginScreen } from '~/components/signin/login-screen'
import type { RealmConfig } from '#shared/schemas/realm'

const config = {
  realm: 'demo',
  name: 'Demo Academy',
  logo_url: '/brand/demo-logo.svg',
  terms: '/terms',
  privacy: '/privacy',
  allowed_signin: ['iptv'],
  captcha_enabled: false,
  token_sso_url: '',
} as RealmConfig

type Action = (args: { request: Request }) => Promise<object | null> | object | null

function renderLogin(action: Action & { mock?: unknown } = vi.fn(() => null), props: Partial<Parameters<typeof LoginScreen>[0]> = {}) {
  const Stub = createRemixStub([
    { path: '/realm', Component: () => <LoginScreen config={config} multirealm={false} locale="pt-BR" {...props} /> },
    { path: '/login', action },
  ])
  render(<Stub initialEntries={['/realm']} />)
  return action
}

describe('LoginScreen', () => {
  it('labels its fields for password managers and assistive technology', () => {
    renderLogin()
    expect(screen.getByLabelText('Usuário').getAttribute('autocomplete')).toBe('username')
    expect(screen.getByLabelText('Senha').getAttribute('autocomplete')).toBe('current-password')
    expect(screen.getByRole('link', { name: 'Termos de uso' }).getAttribute('href')).toBe('/terms')
    expect(screen.queryByRole('button', { name: 'Trocar de domínio' })).toBeNull()
  })

  it('blocks submission and marks both fields when they are shorter than 2 characters', async () => {
    const action = renderLogin()
    fireEvent.change(screen.getByLabelText('Usuário'), { target: { value: 'r' } })
    fireEvent.change(screen.getByLabelText('Senha'), { target: { value: 'x' } })
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }))
    await waitFor(() => expect(screen.getByText('O usuário deve ter pelo menos 2 caracteres.')).toBeTruthy())
    expect(screen.getByText('A senha deve ter pelo menos 2 caracteres.')).toBeTruthy()
    expect(screen.getByLabelText('Usuário').getAttribute('aria-invalid')).toBe('true')
    expect(action).not.toHaveBeenCalled()
  })

  it('submits valid credentials with the current path as redirectTo', async () => {
    const action = vi.fn(async ({ request }: { request: Request }) => {
      const form = await request.formData()
      return { formError: `sent ${form.get('nick')} → ${form.get('redirectTo')}` }
    })
    renderLogin(action)
    fireEvent.change(screen.getByLabelText('Usuário'), { target: { value: 'root' } })
    fireEvent.change(screen.getByLabelText('Senha'), { target: { value: 'demo1234' } })
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }))
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1))
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('sent root → /realm'))
  })

  it('shows and hides the password', () => {
    renderLogin()
    const password = screen.getByLabelText('Senha')
    expect(password.getAttribute('type')).toBe('password')
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar senha' }))
    expect(password.getAttribute('type')).toBe('text')
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar senha' }))
    expect(password.getAttribute('type')).toBe('password')
  })

  it('explains why sign-in is shown: expired session and no dashboard access', () => {
    renderLogin(undefined, { notice: 'session_timeout', multirealm: true })
    expect(screen.getByRole('alert').textContent).toBe('A sua sessão expirou. Entre novamente.')
    expect(screen.getByRole('button', { name: 'Trocar de domínio' })).toBeTruthy()
  })
})
