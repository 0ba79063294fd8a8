import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, openPage, openPageWithoutScript, realmApi, signedInPage, url } from './browser'

const pt = catalogues['pt-BR']
/** The top bar's balance as a number (it shows an abbreviation for large values; these stay under 1000 or read `1k`). */
async function topBarBalance(page: Page): Promise<string> {
  return (await page.getByTestId('credit-balance').textContent()) ?? ''
}

describe('credit ledger in the browser', () => {
  it('buys a package through the sandbox checkout and the top-bar balance rises', async () => {
    // A package of its own (R$ 49,90 for 500 credits), put on sale by the realm's root.
    const name = `Pacote ${crypto.randomUUID().slice(0, 6)}`
    const api = await realmApi('demo', 'root')
    const pkg = await api<{ id: string }>('POST', 'ledger/package', { name, cost: 49.9, currency: 'BRL', points: 500 })
    const { context, page, errors } = await signedInPage('teacher', '/ledger/package/purchase')
    const before = Number(await topBarBalance(page))
    expect(before).toBeGreaterThan(0)
    await page.getByRole('link', { name: `Comprar ${name}` }).click()
    await page.getByRole('button', { name: /^Pagar R\$\s?49,90$/ }).click()

    // The provider's hosted checkout (the embedded sandbox): a test card approves the payment.
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/sandbox\/checkout\/pi_/)
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await page.getByTestId('sandbox-amount').textContent()).toMatch(/R\$\s?49,90/)
    // The card field is on the form kit: the schema's rule live, then the sandbox's refusal of a card it does not
    // know, both under the field; a test card chosen from the list is typed into it.
    const card = page.getByLabel(pt['ledger.sandbox.card_number'])
    await card.fill('12')
    await card.blur()
    await expect.poll(() => card.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('.field .error').textContent()).toBe(pt['ledger.validation.card_number'])
    await card.fill('1234 5678 9012 3456')
    await page.getByRole('button', { name: /^Pagar R\$/ }).click()
    await expect.poll(() => page.locator('.field .error').textContent()).toBe(pt['ledger.error.sandbox_card'])
    expect(await card.getAttribute('aria-invalid')).toBe('true')
    // The summary names the field by its label.
    expect(await page.locator('.error-summary').textContent()).toContain(`${pt['ledger.sandbox.card_number']}: ${pt['ledger.error.sandbox_card']}`)
    await page.getByText(pt['ledger.sandbox.test_cards'], { exact: true }).click()
    await page.getByRole('button', { name: '4242 4242 4242 4242' }).click()
    expect(await card.inputValue()).toBe('4242 4242 4242 4242')
    await page.getByRole('button', { name: /^Pagar R\$/ }).click()

    await expect.poll(() => new URL(page.url()).pathname).toBe(`/ledger/package/purchase/${pkg.id}`)
    await expect.poll(() => page.getByRole('status').filter({ hasText: '500 créditos adicionados' }).count()).toBe(1)
    expect(Number(await topBarBalance(page))).toBe(before + 500)
    expect(errors).toEqual([])
    await context.close()
  })

  it('refuses a transfer to two users at the review when one is unknown, naming it; the corrected transfer moves the balance', async () => {
    const { context, page, errors } = await signedInPage('manager', '/ledger/transfer/create')
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
    const session = await signedInPage('root', '/ledger/sponsor/create')
    const cookies = await session.context.cookies()
    await session.context.close()
    const { context, page } = await openPage({ javaScriptEnabled: false, locale: 'en-US' })
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
  it('filters a report by days typed in the page language, checked live and, without script, by the loader', async () => {
    const { context, page } = await signedInPage('root', '/reports/ledger')
    await page.waitForSelector('html[data-hydrated="true"]')
    const from = page.getByRole('textbox', { name: pt['ledger.report.start_at'] })
    const to = page.getByRole('textbox', { name: pt['ledger.report.end_at'] })
    expect(await from.getAttribute('placeholder')).toBe('dd/mm/aaaa')
    expect(await from.inputValue()).toMatch(/^\d{2}\/\d{2}\/\d{4}$/)
    await from.fill('31/02/2026')
    await from.blur()
    await expect.poll(() => from.getAttribute('aria-invalid')).toBe('true')
    await from.fill('01/10/2026')
    await to.fill('20/10/2026')
    await page.getByRole('button', { name: pt['ledger.report.apply'] }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get('start_at')).toBe('01/10/2026')
    // The loader read the typed days: the CSV export names them as the API took them.
    await expect.poll(() => page.getByRole('link', { name: pt['table.export_csv'] }).getAttribute('href')).toContain('start_at=2026-10-01&end_at=2026-10-20')
    expect(await page.getByRole('textbox', { name: pt['ledger.report.start_at'] }).inputValue()).toBe('01/10/2026')

    const { context: bare, page: p } = await openPageWithoutScript(context)
    await p.goto(url('demo.localhost', '/reports/ledger'))
    await p.getByRole('textbox', { name: pt['ledger.report.start_at'] }).fill('20/11/2026')
    await p.getByRole('textbox', { name: pt['ledger.report.end_at'] }).fill('01/11/2026')
    await p.getByRole('button', { name: pt['ledger.report.apply'] }).click()
    await p.waitForURL((u) => u.searchParams.get('end_at') === '01/11/2026')
    expect(await p.getByRole('textbox', { name: pt['ledger.report.end_at'] }).getAttribute('aria-invalid')).toBe('true')
    expect(await p.locator('.error-summary').textContent()).toContain(pt['ledger.validation.period_order'])
    expect(await p.getByRole('status').filter({ hasText: pt['ledger.report.fix_period'] }).count()).toBe(1)
    await bare.close()
    await context.close()
  })

  it('opens a new price from a typed key, refusing a malformed one with and without script', async () => {
    const { context, page } = await signedInPage('root', '/ledger/content')
    await page.waitForSelector('html[data-hydrated="true"]')
    const key = page.getByRole('textbox', { name: pt['resources.ledger_content.add_custom'] })
    const go = page.locator('#content-custom').getByRole('button', { name: pt['resources.ledger_content.add_go'] })
    await key.fill('1 bad')
    await go.click()
    await expect.poll(() => key.getAttribute('aria-invalid')).toBe('true')
    expect(new URL(page.url()).pathname).toBe('/ledger/content')
    await key.fill('escola.tutoria')
    await go.click()
    await page.waitForURL((u) => u.pathname === '/ledger/content/edit/escola.tutoria')

    const { context: bare, page: p } = await openPageWithoutScript(context)
    await p.goto(url('demo.localhost', '/ledger/content'))
    await p.getByRole('textbox', { name: pt['resources.ledger_content.add_custom'] }).fill('X!')
    await p.locator('#content-custom').getByRole('button').click()
    await p.waitForURL((u) => u.searchParams.get('add') === 'X!')
    expect(await p.getByRole('textbox', { name: pt['resources.ledger_content.add_custom'] }).inputValue()).toBe('X!')
    expect(await p.locator('.error-summary').textContent()).toContain(pt['ledger.validation.content_key'])
    await bare.close()
    await context.close()
  })
})
