import { describe, expect, it } from 'vitest'
import { hydrated, openPage, url } from './browser'

/**
 * The sign-in page is served without React (issue 12: its script budget is 100 KB gzip, less than React DOM, Remix
 * and i18next weigh): one standalone module adds the forms' behaviour. These check that a browser gets nothing else
 * and that everything still works through it.
 */
describe('the sign-in page without React', () => {
  it('loads only its module (and the proof-of-work worker), yet shows errors, toggles the password, solves the captcha and signs in', async () => {
    const { context, page, errors } = await openPage()
    const scripts: string[] = []
    page.on('request', (request) => {
      if (['script', 'worker'].includes(request.resourceType()) || /\.m?js(\?|$)/.test(new URL(request.url()).pathname)) scripts.push(request.url())
    })
    const workers: string[] = []
    page.on('worker', (w) => workers.push(w.url()))
    await page.goto(url('escola.localhost'))
    await hydrated(page)
    expect(new URL(page.url()).pathname).toBe('/login')
    // Nothing of React, Remix or i18next: no Remix context, and the only scripts are the page's module and the worker.
    expect(await page.evaluate(() => 'reactRouterContext' in window || '__remixContext' in window || '__remixManifest' in window)).toBe(false)
    const main = scripts.filter((s) => !s.includes('pow.worker'))
    expect(main).toHaveLength(1)
    expect(main[0]).toMatch(/\/assets\/signin-page\.entry-[\w-]+\.js$/)

    // The password's show/hide toggle.
    const password = page.getByLabel('Senha', { exact: true })
    await password.fill('not-the-password')
    await page.getByRole('button', { name: 'Mostrar senha' }).click()
    expect(await password.getAttribute('type')).toBe('text')
    await page.getByRole('button', { name: 'Ocultar senha' }).click()
    expect(await password.getAttribute('type')).toBe('password')

    // The captcha (escola's proof of work) is solved in a Web Worker; sign-in waits for it.
    const submit = page.getByRole('button', { name: 'Entrar', exact: true })
    await expect.poll(() => page.locator('[data-captcha-state]').getAttribute('data-captcha-state'), { timeout: 30_000 }).toBe('verified')
    expect(await page.locator('input[name="captcha_token"]').inputValue()).toMatch(/^[\w-]{43}$/)
    expect(workers.some((w) => w.includes('pow.worker'))).toBe(true)
    expect(await submit.isEnabled()).toBe(true)

    // A wrong attempt (an account that does not exist): the error, with what was typed kept but the password.
    await page.getByLabel('Documento', { exact: true }).selectOption('cin')
    await page.getByLabel('UF').selectOption('RJ')
    await page.getByLabel('Número do documento').fill('000.000.000-00')
    await page.getByLabel('Senha', { exact: true }).fill('not-the-password')
    await submit.click()
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toContain('Usuário ou senha incorretos.')
    await hydrated(page)
    expect(await page.getByLabel('Documento', { exact: true }).inputValue()).toBe('cin')
    expect(await page.getByLabel('UF').inputValue()).toBe('RJ')
    expect(await page.getByLabel('Número do documento').inputValue()).toBe('000.000.000-00')
    expect(await page.getByLabel('Senha', { exact: true }).inputValue()).toBe('')

    // A field the server refuses is marked and focused.
    await expect.poll(() => page.locator('[data-captcha-state]').getAttribute('data-captcha-state'), { timeout: 30_000 }).toBe('verified')
    await page.getByLabel('Número do documento').fill('1')
    await page.getByLabel('Senha', { exact: true }).fill('demo1234')
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByText('O número do documento deve ter de 2 a 28 caracteres.').isVisible(), { timeout: 15_000 }).toBe(true)
    await hydrated(page)
    expect(await page.getByLabel('Número do documento').getAttribute('aria-invalid')).toBe('true')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('employee-doc-number')

    // The right document and password: the console.
    await page.getByLabel('Documento', { exact: true }).selectOption('rg')
    await page.getByLabel('UF').selectOption('SP')
    await page.getByLabel('Número do documento').fill('12.345.678-9')
    await page.getByLabel('Senha', { exact: true }).fill('demo1234')
    await expect.poll(() => page.locator('[data-captcha-state]').getAttribute('data-captcha-state'), { timeout: 30_000 }).toBe('verified')
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toMatch(/Beatriz Gestora/)
    expect(errors).toEqual([])
    await context.close()
  })

  it('switches tabs with a fresh captcha, and the language without React', async () => {
    const { context, page, errors } = await openPage()
    await page.goto(url('escola.localhost', '/login'))
    await hydrated(page)
    await page.getByRole('tab', { name: 'Código de acesso' }).click()
    expect(await page.getByRole('tab', { name: 'Código de acesso' }).getAttribute('aria-selected')).toBe('true')
    expect(await page.getByLabel('Código de acesso do portal').isVisible()).toBe(true)
    expect(await page.getByLabel('Número do documento').count()).toBe(0)
    await expect.poll(() => page.locator('[data-captcha-state]').getAttribute('data-captcha-state'), { timeout: 30_000 }).toBe('verified')
    await page.getByRole('tab', { name: 'Código de acesso' }).press('ArrowLeft')
    expect(await page.getByRole('tab', { name: 'Servidor' }).getAttribute('aria-selected')).toBe('true')
    await page.getByLabel('Idioma').selectOption('es-ES')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toBe('Iniciar sesión')
    await hydrated(page)
    expect(await page.getByRole('button', { name: 'Mostrar contraseña' }).count()).toBe(1)
    expect(errors).toEqual([])
    await context.close()
  })
})
