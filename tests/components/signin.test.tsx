import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { LoginScreen, type LoginResult } from '~/components/signin/login-screen'
import { enhanceSignin } from '~/components/signin/signin-page'
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

/**
 * The sign-in screen as the browser gets it on /login: the server's HTML (React is not loaded there), then the page's
 * one module (signin-page.ts). Returns the forms' submissions (each form's data; nothing is sent).
 */
function renderLogin(config: RealmConfig, url = '/login', result?: LoginResult) {
  const { pathname, search } = new URL(url, 'http://x')
  document.body.innerHTML = renderToString(
    <LoginScreen config={config} multirealm={false} locale="pt-BR" pathname={pathname} search={search} result={result} />,
  )
  const sent: Record<string, FormDataEntryValue>[] = []
  const onSubmit = (e: SubmitEvent) => {
    sent.push(Object.fromEntries(new FormData(e.target as HTMLFormElement)))
    e.preventDefault()
  }
  document.addEventListener('submit', onSubmit, { capture: true })
  cleanups.push(() => document.removeEventListener('submit', onSubmit, { capture: true }))
  enhanceSignin(document.querySelector<HTMLElement>('[data-signin]')!)
  return sent
}

const cleanups: (() => void)[] = []
afterEach(() => {
  vi.restoreAllMocks()
  for (const cleanup of cleanups.splice(0)) cleanup()
  document.body.innerHTML = ''
})

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
    // (The server's markup selects the option; happy-dom's select does not read it back as its value.)
    expect(uf.querySelector('option[selected]')).toHaveProperty('value', 'SP')
    fireEvent.change(screen.getByLabelText('Documento'), { target: { value: 'rne' } })
    expect(uf).toHaveProperty('value', '-')
    expect(uf).toHaveProperty('disabled', true)
    fireEvent.change(screen.getByLabelText('Documento'), { target: { value: 'cin' } })
    expect(uf).toHaveProperty('value', 'SP')
    expect(uf).toHaveProperty('disabled', false)
    expect(screen.getByLabelText('Número do documento').getAttribute('maxlength')).toBe('28')
  })

  it('shows the errors the server answered in the tab sent, with what was typed (never the password)', () => {
    renderLogin(escola, '/login', {
      method: 'employee',
      fieldErrors: { doc_number: 'validation.document_length', password: 'validation.password_length' },
      values: { doc_type: 'cin', uf: 'MG', doc_number: '1' },
    })
    expect(screen.getByLabelText('Documento').querySelector('option[selected]')).toHaveProperty('value', 'cin')
    expect(screen.getByLabelText('UF').querySelector('option[selected]')).toHaveProperty('value', 'MG')
    expect(screen.getByLabelText('Número do documento')).toHaveProperty('value', '1')
    expect(screen.getByLabelText('Número do documento').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('O número do documento deve ter de 2 a 28 caracteres.')).toBeTruthy()
    expect(screen.getByText('A senha deve ter pelo menos 2 caracteres.')).toBeTruthy()
    expect(screen.getByLabelText('Senha')).toHaveProperty('value', '')
    // The first invalid field has the focus.
    expect(document.activeElement).toBe(screen.getByLabelText('Número do documento'))
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
    const sent = renderLogin(escola, '/login?token=ep1.token-from-link&provider=employee_token&realm=escola')
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({ intent: 'token', token: 'ep1.token-from-link', provider: 'employee_token', redirectTo: '/login' })
    // The post answers the failure: the same address renders it.
    renderLogin(escola, '/login?token=ep1.token-from-link&provider=employee_token&realm=escola', { formError: 'login.msg.error.credentials.token' })
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Não foi possível entrar com este link de acesso.')
    expect(alert.textContent).toContain('Peça um novo link de acesso e tente novamente.')
    expect(screen.getByRole('link', { name: 'Entrar de outra forma' }).getAttribute('href')).toBe('/login')
  })

  it('ignores a link for a provider the realm does not allow', () => {
    renderLogin(escola, '/login?token=abc&provider=google')
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
