import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, launch, newPage, open, signInOnScreen, url } from './browser'

/** The channel and channel-category screens (issue 13) used in the browser as their user would. */

let browser: Browser
beforeAll(async () => {
  browser = await launch()
})
afterAll(async () => {
  await browser?.close()
})

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('channel screens', () => {
  it('creates a category with an icon, then a channel with members: two owners and an unknown nick are refused on their fields', async () => {
    const { context, page, errors } = await newPage(browser, { viewport: { width: 1366, height: 900 } })
    // Deliberate failures: the channel create with two owners and an unknown nick, and the member add of an unknown
    // nick, are answered 422 by the route's action (the browser logs each failed request).
    expectConsoleErrors(page, /status of 422/)
    await open(page, url('demo.localhost', '/channel/category/create'))
    await signInOnScreen(page, 'root')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.channel.category.create'])
    await page.waitForSelector('html[data-hydrated="true"]')
    await page.getByLabel(pt['resources.channel_category.fields.name']).fill(`Esportes ${tag}`)
    await page.getByLabel(pt['resources.channel_category.icons.running']).check()
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/channel/category')
    const catRow = page.locator('tbody tr', { hasText: `Esportes ${tag}` })
    await expect.poll(() => catRow.count()).toBe(1)
    // The icon column shows the icon beside its label.
    expect(await catRow.locator('.icon-cell use').getAttribute('href')).toContain('#running')

    await open(page, url('demo.localhost', '/channel/create'))
    await page.waitForSelector('html[data-hydrated="true"]')
    await page.locator('#channel-form-name').fill(`Aula ${tag}`)
    await page.getByLabel(pt['resources.channel.fields.category_id']).selectOption({ label: `Esportes ${tag}` })
    // The first member is the signed-in user as owner; add a second one (a list intent, in place).
    await page.getByRole('button', { name: pt['resources.channel.add_member'] }).click()
    const nick1 = page.locator('[name="members[1].nick"]')
    await nick1.fill('ninguem')
    await page.locator('[name="members[1].permission"]').selectOption('owner')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    const summary = page.locator('.error-summary')
    await expect.poll(() => summary.textContent()).toContain(pt['validation.channel.many_owners'])
    expect(await summary.textContent()).toContain(pt['validation.channel.member_not_found'].replace('{{value}}', 'ninguem'))
    expect(await nick1.getAttribute('aria-invalid')).toBe('true')
    expect(page.url()).toContain('/channel/create')

    await nick1.fill('teacher')
    await page.locator('[name="members[1].permission"]').selectOption('operator')
    await page.getByRole('button', { name: pt['resources.channel.add_welcome'] }).click()
    await page.locator('[name="welcome[0].message"]').fill('Bem-vindos!')
    await page.getByLabel(pt['resources.channel.modes.moderated_chat']).check()
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/channel/edit/'))
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await page.getByLabel(pt['resources.channel.modes.moderated_chat']).isChecked()).toBe(true)
    expect(await page.locator('[name="welcome[0].message"]').inputValue()).toBe('Bem-vindos!')
    const rows = page.locator('.member-table tbody tr')
    await expect.poll(() => rows.allInnerTexts()).toEqual([expect.stringContaining('root@demo'), expect.stringContaining('teacher@demo')])

    // The member list: an unknown nick is refused on its field; a real one is added and listed.
    const add = page.getByRole('form', { name: pt['resources.channel.add_member'] })
    await add.getByLabel(pt['resources.channel.fields.nick']).fill('fantasma')
    await add.getByRole('button', { name: pt['resources.channel.add_member'] }).click()
    await expect.poll(() => add.locator('.error').first().textContent()).toBe(pt['validation.channel.member_not_found'].replace('{{value}}', 'fantasma'))
    await add.getByLabel(pt['resources.channel.fields.nick']).fill('manager')
    await add.getByRole('button', { name: pt['resources.channel.add_member'] }).click()
    await expect.poll(() => rows.count()).toBe(3)
    // Each member form says its save happened.
    await expect.poll(() => page.getByText(pt['resources.channel.member_saved']).count()).toBeGreaterThan(0)
    expect(errors).toEqual([])
    await context.close()
  })
})
