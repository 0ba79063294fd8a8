import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { openPageWithoutScript, signedInPage, url } from './browser'

/** The calendar beside the form kit's date fields, in Chromium, on the ledger report's period (two date fields). */

const pt = catalogues['pt-BR']
const es = catalogues['es-ES']
const startLabel = pt['ledger.report.start_at']

describe('date field calendar in the browser', () => {
  it('picks a day with the keyboard into the typed field, closes on Escape with focus back, and is absent without script', async () => {
    const { context, page } = await signedInPage('root', '/reports/ledger')
    await page.waitForSelector('html[data-hydrated="true"]')
    const from = page.getByRole('textbox', { name: startLabel })
    const button = page.getByRole('button', { name: pt['form.calendar.open'].replace('{{label}}', startLabel) })
    const dialog = page.getByRole('dialog', { name: pt['form.calendar.title'].replace('{{label}}', startLabel) })
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-day') ?? document.activeElement?.tagName)

    await from.fill('15/03/2026')
    await button.click()
    await dialog.waitFor()
    expect(await dialog.getByRole('heading', { level: 3 }).textContent()).toBe('Março de 2026')
    // pt-BR weeks start on Sunday; the names come from Intl in the page's language.
    expect(await dialog.getByRole('columnheader').first().getAttribute('abbr')).toBe('domingo')
    await expect.poll(focused).toBe('2026-03-15')
    await page.keyboard.press('ArrowRight')
    await page.keyboard.press('ArrowDown')
    await expect.poll(focused).toBe('2026-03-23')
    await page.keyboard.press('PageDown')
    await expect.poll(focused).toBe('2026-04-23')
    expect(await dialog.getByRole('heading', { level: 3 }).textContent()).toBe('Abril de 2026')
    await page.screenshot({ path: '/tmp/tidy4-date-picker.png' })
    await page.keyboard.press('Enter')
    await expect.poll(() => dialog.isVisible()).toBe(false)
    expect(await from.inputValue()).toBe('23/04/2026')
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true)

    // Escape closes without a change and gives focus back to the button.
    await button.click()
    await expect.poll(focused).toBe('2026-04-23')
    await page.keyboard.press('ArrowLeft')
    await page.keyboard.press('Escape')
    await expect.poll(() => dialog.isVisible()).toBe(false)
    expect(await from.inputValue()).toBe('23/04/2026')
    expect(await button.evaluate((el) => el === document.activeElement)).toBe(true)

    // The picked day is what the form sends, as if typed.
    await page.getByRole('textbox', { name: pt['ledger.report.end_at'] }).fill('30/04/2026')
    await page.getByRole('button', { name: pt['ledger.report.apply'] }).click()
    await expect.poll(() => new URL(page.url()).searchParams.get('start_at')).toBe('23/04/2026')

    // Without script the typed field is all there is.
    const { context: bare, page: p } = await openPageWithoutScript(context)
    await p.goto(url('demo.localhost', '/reports/ledger'))
    expect(await p.getByRole('textbox', { name: startLabel }).count()).toBe(1)
    expect(await p.getByRole('button', { name: pt['form.calendar.open'].replace('{{label}}', startLabel) }).count()).toBe(0)
    await bare.close()
    await context.close()
  })

  it('starts the week on Monday in Spanish and names the month in Spanish', async () => {
    const { context, page } = await signedInPage('root', '/reports/ledger')
    // The page's language is the session's choice (the `lng` cookie the language menu sets).
    await context.addCookies([{ name: 'lng', value: encodeURIComponent(btoa(JSON.stringify('es-ES'))), domain: 'demo.localhost', path: '/' }])
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    const label = es['ledger.report.start_at']
    await page.getByRole('textbox', { name: label }).fill('15/03/2026')
    await page.getByRole('button', { name: es['form.calendar.open'].replace('{{label}}', label) }).click()
    const dialog = page.getByRole('dialog', { name: es['form.calendar.title'].replace('{{label}}', label) })
    await dialog.waitFor()
    expect(await dialog.getByRole('heading', { level: 3 }).textContent()).toBe('Marzo de 2026')
    expect(await dialog.getByRole('columnheader').first().getAttribute('abbr')).toBe('lunes')
    await page.keyboard.press('Home')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-day'))).toBe('2026-03-09')
    await page.keyboard.press('Enter')
    expect(await page.getByRole('textbox', { name: label }).inputValue()).toBe('09/03/2026')
    await context.close()
  })
})
