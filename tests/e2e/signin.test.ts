import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mintPortalToken } from '../../worker/lib/state-portal'
import { DEMO_PORTAL_SECRET } from '../../worker/seed/demo'
import { hydrated, launch, newPage, signInOnScreen, url } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

/** Waits until the page's captcha (a proof of work in escola) is solved in the browser. */
async function captchaSolved(page: Page) {
  await expect.poll(() => page.locator('[data-captcha-state]').getAttribute('data-captcha-state'), { timeout: 30_000 }).toBe('verified')
  expect(await page.locator('input[name="captcha_token"]').inputValue()).toMatch(/^[\w-]{43}$/)
}

describe('employee sign-in with captcha', () => {
  it('signs in with document and password once the browser has solved the proof of work in a Web Worker', async () => {
    const { context, page, errors } = await newPage(browser)
    const workers: string[] = []
    page.on('worker', (w) => workers.push(w.url()))
    await page.goto(url('escola.localhost'))
    await hydrated(page)
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Servidor', 'Código de acesso'])
    expect(await page.getByRole('tab', { name: 'Servidor' }).getAttribute('aria-selected')).toBe('true')
    // rne has no state: choosing it blanks and disables the UF; rg and cin start at SP.
    const uf = page.getByLabel('UF')
    await page.getByLabel('Documento', { exact: true }).selectOption('rne')
    expect(await uf.isDisabled()).toBe(true)
    expect(await uf.inputValue()).toBe('-')
    await page.getByLabel('Documento', { exact: true }).selectOption('rg')
    expect(await uf.isDisabled()).toBe(false)
    expect(await uf.inputValue()).toBe('SP')
    await page.getByLabel('Número do documento').fill('12.345.678-9')
    await page.getByLabel('Senha', { exact: true }).fill('demo1234')
    await captchaSolved(page)
    expect(workers.some((w) => w.includes('pow.worker'))).toBe(true)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toMatch(/Beatriz Gestora/)
    expect(errors).toEqual([])
    await context.close()
  })

  it('keeps the rules of the employee form before calling the server', async () => {
    const { context, page } = await newPage(browser)
    await page.goto(url('escola.localhost'))
    await hydrated(page)
    await page.getByLabel('Número do documento').fill('1')
    await page.getByLabel('Senha', { exact: true }).fill('x')
    await captchaSolved(page)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByText('O número do documento deve ter de 2 a 28 caracteres.').isVisible()).toBe(true)
    expect(await page.getByText('A senha deve ter pelo menos 2 caracteres.').isVisible()).toBe(true)
    expect(await page.getByLabel('Número do documento').getAttribute('maxlength')).toBe('28')
    await context.close()
  })

  it('shows the credentials error, then asks for a new captcha for the next attempt', async () => {
    const { context, page } = await newPage(browser)
    await page.goto(url('escola.localhost'))
    await hydrated(page)
    await page.getByLabel('Documento', { exact: true }).selectOption('cin')
    await page.getByLabel('UF').selectOption('MG')
    await page.getByLabel('Número do documento').fill('987.654.321-00')
    await page.getByLabel('Senha', { exact: true }).fill('not-the-password')
    await captchaSolved(page)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toContain('Usuário ou senha incorretos.')
    await captchaSolved(page)
    await page.getByLabel('Senha', { exact: true }).fill('demo1234')
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    // The right password now: Carlos is a teacher, a role escola's allowed_roles keep out of the console.
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 15_000 }).toContain('O seu papel não tem acesso ao painel deste domínio.')
    await context.close()
  })
})

describe('the TV-provider tab', () => {
  it('appears after the logo is clicked 10 times, with the username form', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(url('escola.localhost'))
    await hydrated(page)
    await expect.poll(() => page.getByRole('tab').count()).toBe(2)
    const logo = page.locator('.entry-logo button')
    for (let i = 0; i < 9; i++) await logo.click()
    expect(await page.getByRole('tab', { name: 'Provedor de TV' }).count()).toBe(0)
    await logo.click()
    const tv = page.getByRole('tab', { name: 'Provedor de TV' })
    await expect.poll(() => tv.getAttribute('aria-selected')).toBe('true')
    // The state portal notice sits under the username form where the realm has a portal.
    expect(await page.getByRole('link', { name: 'Ir para o portal do Estado' }).getAttribute('href')).toBe('/brand/escola-sso.html')
    await page.getByLabel('Usuário').fill('root')
    await page.getByLabel('Senha', { exact: true }).fill('demo1234')
    await captchaSolved(page)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toMatch(/Direção Escola/)
    expect(errors).toEqual([])
    await context.close()
  })

  it('is the main form where it comes first (demo), with the Google button', async () => {
    const { context, page } = await newPage(browser)
    await page.goto(url('demo.localhost'))
    await hydrated(page)
    expect(await page.getByRole('tab').count()).toBe(0)
    expect(await page.getByLabel('Usuário').isVisible()).toBe(true)
    expect(await page.getByRole('button', { name: 'Entrar com Google' }).isVisible()).toBe(true)
    await context.close()
  })
})

describe('Google sign-in through the issuer’s popup', () => {
  it('signs in with the account chosen in the popup, and explains a refusal', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(url('demo.localhost'))
    await hydrated(page)
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Entrar com Google' }).click()])
    await popup.waitForLoadState()
    expect(popup.url()).toContain('/authorize?')
    await popup.getByRole('button', { name: 'Cancelar' }).click()
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toContain('O acesso à conta Google foi negado.')
    const [again] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Entrar com Google' }).click()])
    await again.waitForLoadState()
    await again.getByRole('button', { name: /root@demo\.edu/ }).click()
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toMatch(/Root Demo/)
    expect(errors).toEqual([])
    await context.close()
  })

  it('warns about third-party cookies when the popup is closed without an answer', async () => {
    const { context, page } = await newPage(browser)
    await page.goto(url('demo.localhost'))
    await hydrated(page)
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Entrar com Google' }).click()])
    await popup.waitForLoadState()
    await popup.close()
    await expect.poll(() => page.getByRole('alert').textContent(), { timeout: 15_000 }).toContain('Permita janelas e cookies de terceiros')
    await context.close()
  })
})

describe('token login from a link', () => {
  it('signs in with the state portal’s link, and explains a link that no longer works', async () => {
    const token = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', 'RNEV1234567', 600)
    const link = url('escola.localhost', `/?token=${token}&provider=employee_token&realm=escola`)
    const first = await newPage(browser)
    await first.page.goto(link)
    await hydrated(first.page)
    await expect.poll(() => first.page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 }).toMatch(/Lucía Coordenadora/)
    expect(new URL(first.page.url()).search).toBe('')
    expect(first.errors).toEqual([])
    await first.context.close()

    const again = await newPage(browser)
    await again.page.goto(link)
    await hydrated(again.page)
    await expect.poll(() => again.page.getByRole('alert').textContent(), { timeout: 30_000 }).toContain('Não foi possível entrar com este link de acesso.')
    expect(await again.page.getByRole('alert').textContent()).toContain('Peça um novo link de acesso e tente novamente.')
    await again.page.getByRole('link', { name: 'Entrar de outra forma' }).click()
    await expect.poll(() => again.page.getByRole('tab', { name: 'Servidor' }).isVisible()).toBe(true)
    await again.context.close()
  })

  it('names its realm on the multi-realm host', async () => {
    const token = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', 'RG123456789SP', 600)
    const { context, page } = await newPage(browser)
    await page.goto(url('localhost', `/?token=${token}&provider=employee_token&realm=escola`))
    await hydrated(page)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 30_000 }).toMatch(/Beatriz Gestora/)
    expect((await context.cookies()).map((c) => c.name)).toContain('dash_realm')
    await context.close()
  })
})

describe('password recovery through the local outbox', () => {
  it('mails a single-use link that sets a new password', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(url('demo.localhost'))
    await hydrated(page)
    await page.getByRole('link', { name: 'Esqueci a minha senha' }).click()
    await page.getByLabel('Usuário ou e-mail').fill('tutor')
    await page.getByRole('button', { name: 'Enviar link' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Se a conta existir')
    // The outbox (development mode only) shows mail only to the realm's staff: the visitor gets the sign-in screen.
    await page.goto(url('demo.localhost', '/authentication/outbox'))
    await hydrated(page)
    expect(await page.locator('.mail-list').count()).toBe(0)
    expect(await page.getByLabel('Senha', { exact: true }).isVisible()).toBe(true)
    // A staff member (root, in a browser of their own) signs in there and reads the message.
    const staff = await newPage(browser)
    await staff.page.goto(url('demo.localhost', '/authentication/outbox'))
    await hydrated(staff.page)
    await signInOnScreen(staff.page, 'root')
    const mail = staff.page.locator('.mail-list li').first()
    await expect.poll(() => mail.getByRole('heading').textContent(), { timeout: 15_000 }).toBe('Redefinição de senha — Demo Academy')
    const link = await mail.getByRole('link').getAttribute('href')
    expect(link).toContain(url('demo.localhost', '/authentication/recover?key='))
    expect(staff.errors).toEqual([])
    await staff.context.close()
    await page.goto(link!)
    await hydrated(page)
    await page.getByLabel('Nova senha', { exact: true }).fill('nova-senha-123')
    await page.getByLabel('Confirme a nova senha').fill('outra-senha-123')
    await page.getByRole('button', { name: 'Salvar a nova senha' }).click()
    await expect.poll(() => page.getByText('As senhas não coincidem.').isVisible()).toBe(true)
    await page.getByLabel('Confirme a nova senha').fill('nova-senha-123')
    await page.getByRole('button', { name: 'Salvar a nova senha' }).click()
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Senha alterada')
    await page.getByRole('link', { name: 'Voltar para a entrada' }).first().click()
    await signInOnScreen(page, 'tutor', 'nova-senha-123')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: 15_000 }).toMatch(/Rita Tutora/)
    expect(errors).toEqual([])
    await context.close()

    const replay = await newPage(browser)
    await replay.page.goto(link!)
    await hydrated(replay.page)
    await replay.page.getByLabel('Nova senha', { exact: true }).fill('mais-uma-senha-1')
    await replay.page.getByLabel('Confirme a nova senha').fill('mais-uma-senha-1')
    await replay.page.getByRole('button', { name: 'Salvar a nova senha' }).click()
    await expect.poll(() => replay.page.getByRole('alert').textContent()).toContain('Este link de recuperação já foi usado.')
    await replay.context.close()
  })
})

describe('realm switch', () => {
  it('switches the platform operator from demo to escola: dialog, 2000 ms of progress, then escola’s console', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(url('demo.localhost'))
    await hydrated(page)
    // Another realm tree: only the platform operator reaches it (demo's root stays in demo's tree).
    await signInOnScreen(page, 'platform')
    await page.getByRole('button', { name: 'Trocar de domínio' }).click()
    const dialog = page.getByRole('dialog', { name: 'Trocar de domínio' })
    await expect.poll(() => dialog.getByRole('button', { name: /Escola Estadual Modelo/ }).isVisible()).toBe(true)
    expect(await dialog.getByRole('button', { name: /^Demo Academy demo/ }).isDisabled()).toBe(true)
    await dialog.getByLabel('Buscar domínio').fill('escola')
    expect(await dialog.getByRole('button', { name: /Demo Academy/ }).count()).toBe(0)
    await dialog.getByRole('button', { name: /Escola Estadual Modelo/ }).click()
    await expect.poll(() => dialog.getByRole('status').textContent()).toContain('Trocando para Escola Estadual Modelo…')
    await expect.poll(() => new URL(page.url()).host, { timeout: 15_000 }).toBe(`escola.localhost:${new URL(url('localhost')).port}`)
    await expect.poll(() => page.locator('.topbar .realm-name').textContent()).toBe('Escola Estadual Modelo')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/Operadora da Plataforma/)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(errors).toEqual([])
    await context.close()
  })
})
