import { fireEvent, screen } from '@testing-library/react'
import { renderToString } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { LoginScreen, type LoginResult } from '~/components/signin/login-screen'
import { enhanceSignin } from '~/components/signin/signin-page'
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

/** The screen as /login serves it (server HTML, no React in the browser) with the page's module on it. */
function renderLogin(props: Partial<Parameters<typeof LoginScreen>[0]> = {}) {
  document.body.innerHTML = renderToString(<LoginScreen config={config} multirealm={false} locale="pt-BR" pathname="/realm" search="" {...props} />)
  enhanceSignin(document.querySelector<HTMLElement>('[data-signin]')!)
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('LoginScreen', () => {
  it('labels its fields for password managers and assistive technology', () => {
    renderLogin()
    expect(screen.getByLabelText('Usuário').getAttribute('autocomplete')).toBe('username')
    expect(screen.getByLabelText('Senha').getAttribute('autocomplete')).toBe('current-password')
    expect(screen.getByRole('link', { name: 'Termos de uso' }).getAttribute('href')).toBe('/terms')
    expect(screen.queryByRole('button', { name: 'Trocar de domínio' })).toBeNull()
  })

  it('posts to /login with the current path as redirectTo, as a plain form', () => {
    renderLogin()
    const form = screen.getByLabelText('Usuário').closest('form')!
    expect(form.getAttribute('method')).toBe('post')
    expect(form.getAttribute('action')).toBe('/login?redirectTo=%2Frealm')
    expect(Object.fromEntries(new FormData(form))).toMatchObject({ intent: 'device', redirectTo: '/realm' })
  })

  it('marks the fields the server refused and keeps the nick typed', () => {
    const result: LoginResult = { method: 'iptv', fieldErrors: { nick: 'validation.username_length' }, values: { nick: 'r' } }
    renderLogin({ result })
    expect(screen.getByLabelText('Usuário').getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('O usuário deve ter pelo menos 2 caracteres.')).toBeTruthy()
    expect(screen.getByLabelText('Usuário')).toHaveProperty('value', 'r')
    expect(document.activeElement).toBe(screen.getByLabelText('Usuário'))
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
    renderLogin({ notice: 'session_timeout', multirealm: true })
    expect(screen.getByRole('alert').textContent).toBe('A sua sessão expirou. Entre novamente.')
    expect(screen.getByRole('button', { name: 'Trocar de domínio' })).toBeTruthy()
  })
})
