import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { launch, newPage, open, signInOnScreen, url } from './browser'

/** A generic plain-entity screen (app/entity-routes/, read from app/shared/entities/tms-genre.ts) used in the browser. */

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const pt = catalogues['pt-BR']
const en = catalogues['en-US']
const tag = Date.now().toString(36)

describe('generic entity screens (textual genre)', () => {
  it('creates with wrong then real values, saves, finds it after a reload, edits it and keeps the change', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: { width: 1366, height: 900 } })
    await open(page, url('demo.localhost', '/tms/genre/create'))
    await signInOnScreen(page, 'root')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.tms.genre.create'])
    await page.waitForSelector('html[data-hydrated="true"]')
    const name = page.getByLabel(pt['resources.tms_genre.fields.name'])
    const min = page.getByLabel(pt['resources.tms_genre.fields.min_words'])
    const max = page.getByLabel(pt['resources.tms_genre.fields.max_words'])

    // Wrong values: a one-letter name, fewer maximum than minimum words.
    await name.fill('C')
    await min.fill('300')
    await max.fill('100')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    const summary = page.locator('.error-summary')
    await expect.poll(() => summary.textContent()).toContain(pt['form.summary'])
    expect(await summary.textContent()).toContain(pt['validation.tms.words_order'])
    await expect.poll(() => name.evaluate((el) => el === document.activeElement)).toBe(true)
    expect(await max.getAttribute('aria-invalid')).toBe('true')
    expect(page.url()).toContain('/tms/genre/create')

    // Real values.
    await name.fill(`Crônica ${tag}`)
    await max.fill('900')
    await page.getByLabel(pt['resources.tms_genre.fields.description']).fill('Texto narrativo curto')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/tms/genre')

    // The list (search by the declared search bar) shows it after a reload.
    await open(page, url('demo.localhost', `/tms/genre?like=${tag}`))
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.tms.genre.list'])
    const row = page.locator('tbody tr', { hasText: `Crônica ${tag}` })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain('900')

    // Edit from the row action; a wrong change is refused, a real one kept after a reload.
    await row.getByRole('link', { name: pt['tms.list.edit'].replace('{{name}}', `Crônica ${tag}`) }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/tms/genre/edit/'))
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${pt['pages.tms.genre.edit']}: Crônica ${tag}`)
    expect(await max.inputValue()).toBe('900')
    await max.fill('200')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => max.getAttribute('aria-invalid')).toBe('true')
    await max.fill('1200')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/tms/genre')
    await open(page, url('demo.localhost', `/tms/genre?like=${tag}`))
    await expect.poll(() => page.locator('tbody tr', { hasText: `Crônica ${tag}` }).textContent()).toContain('1200')
    expect(errors).toEqual([])
    await context.close()
  })

  it('speaks the page language (en-US): titles, columns and messages of the declaration', async () => {
    const { context, page, errors } = await newPage(browser, { locale: 'en-US', viewport: { width: 1366, height: 900 } })
    await context.addCookies([{ name: 'lng', value: encodeURIComponent(btoa(JSON.stringify('en-US'))), domain: 'demo.localhost', path: '/' }])
    await open(page, url('demo.localhost', '/tms/assessed_skills'))
    await page.getByLabel(/User/).fill('root')
    await page.getByLabel('Password', { exact: true }).fill('demo1234')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(en['pages.tms.assessed_skills.list'])
    const headers = await page.locator('thead th').allTextContents()
    expect(headers.join(' ')).toContain(en['resources.tms_assessed_skill.fields.weight'])
    await page.getByRole('link', { name: en['pages.tms.assessed_skills.create'] }).click()
    await page.waitForURL((u) => u.pathname === '/tms/assessed_skills/create')
    await page.waitForSelector('html[data-hydrated="true"]')
    await page.getByRole('button', { name: en['tms.form.save'] }).click()
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(en['form.summary'])
    expect(errors).toEqual([])
    await context.close()
  })

  it('metaverse rooms: the generic form keeps the declared defaults, refuses a bad host, saves, and edits', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: { width: 1366, height: 900 } })
    await open(page, url('demo.localhost', '/metaverse/create'))
    await signInOnScreen(page, 'root')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.metaverse.create'])
    await page.waitForSelector('html[data-hydrated="true"]')
    const f = (k: string) => page.getByLabel(pt[`resources.metaverse_room.fields.${k}`])
    expect(await f('capacity').inputValue()).toBe('50')
    expect(await f('enabled').isChecked()).toBe(true)
    await f('name').fill(`Auditório ${tag}`)
    await f('host').fill('não é host')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(pt['validation.host'])
    await f('host').fill('meta.exemplo.com.br')
    await f('capacity').fill('120')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/metaverse')
    await expect.poll(() => page.locator('body').textContent()).toContain(pt['resources.metaverse_room.saved'].replace('{{name}}', `Auditório ${tag}`))
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    const row = page.locator('tbody tr', { hasText: `Auditório ${tag}` })
    await expect.poll(() => row.textContent()).toContain('120')
    await row.getByRole('link').first().click()
    await page.waitForURL((u) => u.pathname.startsWith('/metaverse/edit/'))
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await f('host').inputValue()).toBe('meta.exemplo.com.br')
    await f('enabled').uncheck()
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/metaverse')
    await page
      .locator('tbody tr', { hasText: `Auditório ${tag}` })
      .getByRole('link')
      .first()
      .click()
    await page.waitForURL((u) => u.pathname.startsWith('/metaverse/edit/'))
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await f('enabled').isChecked()).toBe(false)
    expect(errors).toEqual([])
    await context.close()
  })
})
