import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LoginScreen } from '~/components/signin/login-screen'
import { signinTabs } from '~/components/signin/tabs'
import type { RealmConfig } from '#shared/schemas/realm'

const escola = {
  realm: 'escola',
  name: 'Escola Estadual Modelo',
  logo_url: '/brand/escola-logo.svg',
  terms: '',
  privacy: '',
  allowed_signin: ['employee', 'employee_token', 'iptv'],
  captcha_enabled: false,
  captcha_type: 'pow',
  token_sso_url: '/sso',
  api_endpoint: 'http://127.0.0.1:9/api/',
  google_client_id: '',
} as unknown as RealmConfig

type Action = (args: { request: Request }) => Promise<object | null> | object | null

function renderLogin(config: RealmConfig, url = '/', action: Action = vi.fn(() => null)) {
  const Stub = createRemixStub([
    { path: '/', Component: () => <LoginScreen config={config} multirealm={false} locale="pt-BR" /> },
    { path: '/login', action },
  ])
  render(<Stub initialEntries={[url]} />)
  return action
}

afterEach(() => vi.restoreAllMocks())

describe('sign-in tabs', () => {
  it('follow allowed_signin; Google joins the username form where it comes first; iptv elsewhere waits for 10 clicks', () => {
    expect(signinTabs(['iptv', 'google'], false)).toEqual(['iptv'])
    expect(signinTabs(['employee', 'employee_token', 'iptv'], false)).toEqual(['employee', 'employee_token'])
    expect(signinTabs(['employee', 'employee_token', 'iptv'], true)).toEqual(['employee', 'employee_token', 'iptv'])
    expect(signinTabs(['google', 'employee', 'unknown'], false)).toEqual(['google', 'employee'])
  })

  it('renders one tab per method and moves between them with the arrow keys', () => {
    renderLogin(escola)
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((t) => t.textContent)).toEqual(['Servidor', 'Código de acesso'])
    expect(tabs[0].getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(tabs[0], { key: 'ArrowRight' })
    expect(screen.getByRole('tab', { name: 'Código de acesso' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByLabelText('Código de acesso do portal')).toBeTruthy()
    expect(screen.getByRole('link', { name: /Ir para o portal do Estado/ }).getAttribute('href')).toBe('/sso')
  })

  it('reveals the TV-provider tab on the 10th click on the logo', () => {
    renderLogin(escola)
    const logo = screen.getByRole('img', { name: 'Escola Estadual Modelo' }).closest('button')!
    for (let i = 0; i < 9; i++) fireEvent.click(logo)
    expect(screen.queryByRole('tab', { name: 'Provedor de TV' })).toBeNull()
    fireEvent.click(logo)
    expect(screen.getByRole('tab', { name: 'Provedor de TV' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByLabelText('Usuário')).toBeTruthy()
  })
})

describe('employee form', () => {
  it('blanks and disables the state for rne, and starts rg and cin at SP', () => {
    renderLogin(escola)
    const uf = screen.getByLabelText('UF')
    expect(uf).toHaveProperty('value', 'SP')
    fireEvent.change(screen.getByLabelText('Documento'), { target: { value: 'rne' } })
    expect(uf).toHaveProperty('value', '-')
    expect(uf).toHaveProperty('disabled', true)
    fireEvent.change(screen.getByLabelText('Documento'), { target: { value: 'cin' } })
    expect(uf).toHaveProperty('value', 'SP')
    expect(uf).toHaveProperty('disabled', false)
    expect(screen.getByLabelText('Número do documento').getAttribute('maxlength')).toBe('28')
  })

  it('blocks a short number, a short password and a blank state for rg', async () => {
    const action = renderLogin(escola)
    fireEvent.change(screen.getByLabelText('UF'), { target: { value: '-' } })
    fireEvent.change(screen.getByLabelText('Número do documento'), { target: { value: '1' } })
    fireEvent.change(screen.getByLabelText('Senha'), { target: { value: 'x' } })
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }))
    await waitFor(() => expect(screen.getByText('O número do documento deve ter de 2 a 28 caracteres.')).toBeTruthy())
    expect(screen.getByText('Escolha a UF do documento.')).toBeTruthy()
    expect(screen.getByText('A senha deve ter pelo menos 2 caracteres.')).toBeTruthy()
    expect(action).not.toHaveBeenCalled()
  })
})

describe('captcha', () => {
  it('keeps sign-in disabled while the captcha is unsolved, with the generation error when no challenge comes', async () => {
    // Nothing answers at the realm's API address: the challenge cannot be fetched (refused here, as a browser's fetch
    // refuses, rather than by a real connection to a closed port, which happy-dom reports on stderr).
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'))
    renderLogin({ ...escola, captcha_enabled: true })
    expect((screen.getByRole('button', { name: 'Entrar' }) as HTMLButtonElement).disabled).toBe(true)
    await waitFor(() => expect(fetchSpy).toHaveBeenCalled())
    expect(String(fetchSpy.mock.calls[0][0])).toContain('http://127.0.0.1:9/api/')
    await waitFor(() => expect(screen.getByText('Não foi possível gerar a verificação de segurança.')).toBeTruthy())
    expect((screen.getByRole('button', { name: 'Entrar' }) as HTMLButtonElement).disabled).toBe(true)
    expect(screen.getByRole('button', { name: 'Tentar novamente' })).toBeTruthy()
  })

  it('waits for a click before fetching a text or image challenge', () => {
    renderLogin({ ...escola, captcha_enabled: true, captcha_type: 'image' })
    expect(screen.getByRole('button', { name: /Não sou um robô/ })).toBeTruthy()
  })
})

describe('token login from a link', () => {
  it('signs in on its own with the link’s token and provider, then shows the token error and a way back', async () => {
    const action = vi.fn(async ({ request }: { request: Request }) => {
      const form = await request.formData()
      expect(Object.fromEntries(form)).toMatchObject({ intent: 'token', token: 'ep1.token-from-link', provider: 'employee_token', redirectTo: '/' })
      return { formError: 'login.msg.error.credentials.token' }
    })
    renderLogin(escola, '/?token=ep1.token-from-link&provider=employee_token&realm=escola', action)
    await waitFor(() => expect(action).toHaveBeenCalledTimes(1))
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Não foi possível entrar com este link de acesso.')
    expect(alert.textContent).toContain('Peça um novo link de acesso e tente novamente.')
    expect(screen.getByRole('link', { name: 'Entrar de outra forma' }).getAttribute('href')).toBe('/')
  })

  it('ignores a link for a provider the realm does not allow', () => {
    renderLogin(escola, '/?token=abc&provider=google')
    expect(screen.getByRole('tab', { name: 'Servidor' })).toBeTruthy()
  })
})

describe('Google button', () => {
  it('warns about third-party cookies when the popup cannot open', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null)
    renderLogin({ ...escola, allowed_signin: ['iptv', 'google'], google_client_id: 'client' } as RealmConfig)
    const button = screen.getByRole('button', { name: 'Entrar com Google' })
    await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(button)
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText(/Permita janelas e cookies de terceiros/)).toBeTruthy()
    expect(window.open).toHaveBeenCalledWith(expect.stringMatching(/^\/authentication\/google\?state=[0-9a-f]{32}$/), 'google-signin', expect.any(String))
  })
})
