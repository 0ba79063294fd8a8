import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, launch, newPage, open, realmApi, signInOnScreen, url } from './browser'

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const pt = catalogues['pt-BR']
/** The top bar's balance as a number (it shows an abbreviation for large values; these stay under 1000 or read `1k`). */
async function topBarBalance(page: Page): Promise<string> {
  return (await page.getByTestId('credit-balance').textContent()) ?? ''
}

async function signedIn(nick: string, path: string) {
  const session = await newPage(browser, { viewport: { width: 1280, height: 900 } })
  await open(session.page, url('demo.localhost', path))
  await signInOnScreen(session.page, nick)
  await session.page.waitForSelector('nav[aria-label="Navegação principal"]')
  return session
}

describe('credit ledger in the browser', () => {
  it('buys a package through the sandbox checkout and the top-bar balance rises', async () => {
    // A package of its own (R$ 49,90 for 500 credits), put on sale by the realm's root.
    const name = `Pacote ${crypto.randomUUID().slice(0, 6)}`
    const api = await realmApi('demo', 'root')
    const pkg = await api<{ id: string }>('POST', 'ledger/package', { name, cost: 49.9, currency: 'BRL', points: 500 })
    const { context, page, errors } = await signedIn('teacher', '/ledger/package/purchase')
    const before = Number(await topBarBalance(page))
    expect(before).toBeGreaterThan(0)
    await page.getByRole('link', { name: `Comprar ${name}` }).click()
    await page.getByRole('button', { name: /^Pagar R\$\s?49,90$/ }).click()

    // The provider's hosted checkout (the embedded sandbox): a test card approves the payment.
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\/pi_/)
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await page.getByTestId('sandbox-amount').textContent()).toMatch(/R\$\s?49,90/)
    await page.getByLabel(pt['ledger.sandbox.card_number']).fill('4242 4242 4242 4242')
    await page.getByRole('button', { name: /^Pagar R\$/ }).click()

    await expect.poll(() => new URL(page.url()).pathname).toBe(`/ledger/package/purchase/${pkg.id}`)
    await expect.poll(() => page.getByRole('status').filter({ hasText: '500 créditos adicionados' }).count()).toBe(1)
    expect(Number(await topBarBalance(page))).toBe(before + 500)
    expect(errors).toEqual([])
    await context.close()
  })

  it('refuses a transfer to two users at the review when one is unknown, naming it; the corrected transfer moves the balance', async () => {
    const { context, page, errors } = await signedIn('manager', '/ledger/transfer/create')
    await page.waitForSelector('html[data-hydrated="true"]')
    const before = await topBarBalance(page)
    await page.getByLabel(pt['ledger.transfer.targets']).fill('teacher, fantasma')
    await page.getByLabel(pt['ledger.transfer.points']).fill('5')
    await expect.poll(() => page.getByTestId('total-required').textContent()).toBe('Total necessário: 10')
    // The review's refusal is the form's answer with the lookup's status (404), which Chromium logs.
    expectConsoleErrors(page, /status of 404/)
    await page.getByRole('button', { name: pt['ledger.transfer.submit'] }).click()

    // The manager may look wallets up: the review names the unknown recipient on the field, before any dialog.
    const fieldError = page.locator('main .field-invalid .error')
    await expect.poll(() => fieldError.textContent()).toContain('fantasma')
    expect(await fieldError.textContent()).not.toContain('teacher')
    const summary = page.locator('main .error-summary')
    expect(await summary.textContent()).toContain(pt['ledger.transfer.targets'])
    expect(await page.getByRole('dialog', { name: pt['ledger.transfer.confirm_title'] }).count()).toBe(0)
    expect(await topBarBalance(page)).toBe(before)

    await page.getByLabel(pt['ledger.transfer.targets']).fill('teacher root')
    await page.getByRole('button', { name: pt['ledger.transfer.submit'] }).click()
    const dialog = page.getByRole('dialog', { name: pt['ledger.transfer.confirm_title'] })
    await expect.poll(() => dialog.textContent()).toContain('teacher, root')
    await dialog.getByRole('button', { name: pt['ledger.transfer.confirm_yes'] }).click()
    await expect.poll(() => page.locator('.toast-top-right').getByRole('status').textContent()).toContain('10 créditos transferidos para 2')
    await expect.poll(() => topBarBalance(page)).not.toBe(before)
    expect(errors).toEqual([])
    await context.close()
  })

  it('sponsors a realm without JavaScript (review panel, then confirm), in English, with errors named by label', async () => {
    const session = await signedIn('root', '/ledger/sponsor/create')
    const cookies = await session.context.cookies()
    await session.context.close()
    const { context, page } = await newPage(browser, { javaScriptEnabled: false, locale: 'en-US' })
    // The language cookie as the console writes it (a Remix cookie: base64 JSON).
    await context.addCookies([
      ...cookies.filter((c) => c.name !== 'lng'),
      { name: 'lng', value: encodeURIComponent(btoa('"en-US"')), url: url('demo.localhost', '/') },
    ])
    const en = catalogues['en-US']
    await page.goto(url('demo.localhost', '/ledger/sponsor/create'))
    // The paying wallet's balance, in full (the top bar abbreviates it).
    const available = async () => (await page.locator('main .ledger-total').textContent())?.replace(/^.*Available/, 'Available')
    const before = await available()
    await page.getByLabel(en['ledger.sponsor.points']).fill('abc')
    await page.getByRole('button', { name: en['ledger.sponsor.submit'] }).click()
    const summary = page.locator('main .error-summary')
    await expect.poll(() => summary.textContent()).toContain(en['ledger.sponsor.points'])
    expect(await page.getByLabel(en['ledger.sponsor.points']).inputValue()).toBe('abc')

    await page.getByLabel(en['ledger.sponsor.points']).fill('3')
    await page.getByRole('button', { name: en['ledger.sponsor.submit'] }).click()
    const review = page.getByRole('region', { name: en['ledger.sponsor.confirm_title'] })
    await expect.poll(() => review.textContent()).toContain('3')
    expect(await available()).toBe(before)
    await review.getByRole('button', { name: en['ledger.sponsor.confirm_yes'] }).click()
    await expect.poll(available).not.toBe(before)
    expect(await page.getByRole('region', { name: en['ledger.sponsor.confirm_title'] }).count()).toBe(0)
    await context.close()
  })
})
