import { describe, expect, it } from 'vitest'
import { hydrated, open, openPage, signInOnScreen, url } from './browser'

describe('choose a realm, sign in, see the console', () => {
  it('shows the chooser on localhost; choosing demo leads to demo’s sign-in', async () => {
    const { context, page, errors } = await openPage()
    await open(page, url('localhost'))
    await expect.poll(() => page.getByRole('heading', { name: 'Escolha o seu domínio' }).isVisible()).toBe(true)
    const field = page.getByLabel('Código do domínio')
    await field.fill('nowhere')
    await page.getByRole('button', { name: 'Selecionar' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Não encontramos o domínio “nowhere”')
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    await field.fill('demo')
    await page.getByRole('button', { name: 'Selecionar' }).click()
    await expect.poll(() => page.getByRole('heading', { name: 'Entrar' }).isVisible()).toBe(true)
    expect(await page.title()).toContain('Demo Academy')
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/brand/demo-favicon.svg')
    expect(await page.getByRole('link', { name: 'Termos de uso' }).getAttribute('href')).toBe('/brand/demo-terms.html')
    expect(errors).toEqual([])
    await context.close()
  })

  it('shows sign-in for a deep link to a protected page and restores it afterwards', async () => {
    const { context, page, errors } = await openPage()
    await open(page, url('demo.localhost', '/realm?order=-code'))
    expect(await page.getByLabel('Usuário').getAttribute('autocomplete')).toBe('username')
    expect(await page.getByLabel('Senha', { exact: true }).getAttribute('autocomplete')).toBe('current-password')
    // Every realm (escola included) is listed to the platform operator; demo's root sees demo's tree.
    await signInOnScreen(page, 'platform')
    await expect.poll(() => page.getByRole('heading', { name: 'Domínios' }).isVisible()).toBe(true)
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/realm?order=-code')
    // The restored query sorts by code, descending (other browser files add realms to the shared server: the order is
    // what is checked, with escola among the rows).
    const codes = await page.locator('table.data tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelectorAll('td')[1]?.textContent ?? ''))
    expect(codes).toContain('escola')
    expect(codes).toEqual([...codes].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)))
    const cookies = await context.cookies()
    const session = cookies.find((c) => c.name === 'dash_session')
    expect(session?.httpOnly).toBe(true)
    expect(await page.evaluate(() => document.cookie)).not.toContain('dash_session')
    expect(errors).toEqual([])
    await context.close()
  })

  it('refuses a student with the no-dashboard-access message', async () => {
    const { context, page } = await openPage()
    await open(page, url('demo.localhost'))
    await signInOnScreen(page, 'student')
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('O seu perfil não tem acesso ao painel.')
    expect(await page.getByLabel('Usuário').isVisible()).toBe(true)
    await context.close()
  })

  it('shows the credentials error and toggles password visibility', async () => {
    const { context, page } = await openPage()
    await open(page, url('demo.localhost'))
    const password = page.getByLabel('Senha', { exact: true })
    await password.fill('wrong-password')
    await page.getByRole('button', { name: 'Mostrar senha' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await page.getByLabel('Usuário').fill('root')
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('Usuário ou senha incorretos.')
    await context.close()
  })

  it('signs out back to / and its sign-in page', async () => {
    const { context, page } = await openPage()
    await open(page, url('demo.localhost'))
    await signInOnScreen(page, 'manager')
    await expect.poll(() => page.getByRole('navigation', { name: 'Navegação principal' }).isVisible()).toBe(true)
    await hydrated(page)
    await page.getByRole('button', { name: /Conta/ }).click()
    await page.getByRole('button', { name: 'Sair' }).click()
    await expect.poll(() => page.getByLabel('Usuário').isVisible()).toBe(true)
    // Back to /, which without a session is the sign-in page (its own route since issue 12).
    expect(new URL(page.url()).pathname).toBe('/login')
    expect((await context.cookies()).find((c) => c.name === 'dash_session')).toBeUndefined()
    await context.close()
  })

  it('shows the 404 page for an unknown path, with a way home', async () => {
    const { context, page } = await openPage()
    const res = await open(page, url('demo.localhost', '/definitely/not/here'))
    expect(res?.status()).toBe(404)
    expect(await page.getByRole('heading', { name: 'Você está perdido' }).isVisible()).toBe(true)
    await page.getByRole('link', { name: 'Voltar para o início' }).click()
    await expect.poll(() => page.getByLabel('Usuário').isVisible()).toBe(true)
    await context.close()
  })

  it('switches the interface language and keeps it', async () => {
    const { context, page } = await openPage()
    await open(page, url('escola.localhost'))
    await page.getByLabel('Idioma').selectOption('en-US')
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true)
    await open(page, url('escola.localhost'))
    expect(await page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true)
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US')
    await context.close()
  })

  it('shows staff presence live over PartyKit', async () => {
    const a = await openPage()
    const b = await openPage()
    await open(a.page, url('demo.localhost'))
    await signInOnScreen(a.page, 'root')
    await open(b.page, url('demo.localhost'))
    await signInOnScreen(b.page, 'manager')
    const presence = a.page.locator('section[data-presence-status]')
    await expect.poll(() => presence.getAttribute('data-presence-status'), { timeout: 15_000 }).toBe('open')
    await expect.poll(() => presence.textContent(), { timeout: 15_000 }).toContain('Marina Souza')
    expect(await presence.textContent()).toContain('Root Demo (você)')
    await b.context.close()
    await expect.poll(() => presence.textContent(), { timeout: 15_000 }).not.toContain('Marina Souza')
    await a.context.close()
  })
})
