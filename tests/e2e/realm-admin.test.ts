import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { visibleNav } from '~/lib/navigation'
import { permissionMap } from '#shared/schemas/permission'
import { DEMO_ROLES } from '../../worker/seed/demo'
import { open, openPageWithoutScript, signedInPage, url } from './browser'

const pt = catalogues['pt-BR']
const NAV = 'nav[aria-label="Navegação principal"]'

/** The sidebar's section labels as shown. */
async function sections(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Navegação principal' })
  return (await nav.locator(':scope > ul > li > .nav-link .nav-label, :scope > ul > li > a .nav-label').allTextContents()).filter(
    (l) => l !== pt['nav.overview'],
  )
}

/** The sections the union of these seeded roles allows in a realm (from the manifest and the seed). */
function expectedSections(roles: string[], flags = { ledger_enabled: true, persona_enabled: true }): string[] {
  const granted = roles.flatMap((r) => DEMO_ROLES.find((x) => x.role === r)!.permissions)
  return visibleNav(permissionMap(granted), flags).map((s) => pt[s.label])
}
const SLOW = { timeout: 15_000 }
/** The kit's error of one line of a text box, as shown. */
const lineError = (line: number, rule: string) => pt['form.line_error'].replace('{{line}}', String(line)).replace('{{rule}}', rule)

describe('realm administration in the browser', () => {
  it('creates a realm with its host and first administrator, who signs in there at once', async () => {
    // Hosts are infra (mas_realm_edit_infra): the platform operator's.
    const { context, page, errors } = await signedInPage('platform', '/realm/create')
    await page.getByLabel(pt['resources.realm.fields.code']).fill('campus')
    await page.getByRole('tabpanel').getByLabel(pt['resources.realm.fields.name'], { exact: true }).fill('Campus Novo')
    await page.getByLabel(pt['resources.realm.fields.hosts']).fill('campus.localhost')
    await page.getByLabel(pt['resources.realm.admin.enable']).check()
    const admin = page.getByRole('group', { name: pt['resources.realm.admin.title'] })
    await admin.getByLabel(pt['resources.realm.admin.nick']).fill('chefe')
    await admin.getByLabel(pt['resources.realm.admin.name']).fill('Chefe do Campus')
    await admin.getByLabel(pt['resources.realm.admin.password']).fill('senha-do-chefe')
    await admin.getByLabel(pt['resources.realm.admin.role']).selectOption('admin')
    // Live validation with the API's schema: a bad host is marked before anything is sent.
    await page.getByLabel(pt['resources.realm.fields.hosts']).fill('not a host')
    await page.getByRole('button', { name: pt['resources.realm.create'] }).click()
    await expect.poll(() => page.getByRole('alert').filter({ hasText: pt['validation.host'] }).count()).toBeGreaterThan(0)
    await page.getByLabel(pt['resources.realm.fields.hosts']).fill('campus.localhost')
    await page.getByRole('button', { name: pt['resources.realm.create'] }).click()
    await expect.poll(() => new URL(page.url()).pathname, SLOW).toBe('/realm/edit/campus')
    await expect.poll(() => page.locator('.toast-success').textContent()).toContain('Campus Novo')
    expect(errors).toEqual([])
    await context.close()

    const chefe = await signedInPage('chefe', '/', { host: 'campus.localhost', password: 'senha-do-chefe' })
    expect(await chefe.page.locator('.realm-name').textContent()).toBe('Campus Novo')
    // A new realm has the ledger and personas off (the defaults).
    expect(await sections(chefe.page)).toEqual(expectedSections(['admin'], { ledger_enabled: false, persona_enabled: false }))
    expect(chefe.errors).toEqual([])
    await chefe.context.close()
  })

  it("edits a user's roles, and the sidebar changes for them on their next page", async () => {
    const root = await signedInPage('root', '/user/create')
    await root.page.getByLabel(pt['resources.user.fields.nick']).fill('prof2')
    await root.page.getByLabel(new RegExp(`^${pt['resources.user.fields.name']}`)).fill('Professora Dois')
    await root.page.getByLabel(pt['resources.user.fields.password']).fill('senha-da-prof2')
    await root.page.getByRole('checkbox', { name: /^teacher/ }).check()
    await root.page.getByRole('button', { name: pt['resources.user.save'] }).click()
    await expect.poll(() => new URL(root.page.url()).pathname, SLOW).toBe('/user')

    const prof = await signedInPage('prof2', '/', { host: 'demo.localhost', password: 'senha-da-prof2' })
    expect(await sections(prof.page)).toEqual(expectedSections(['teacher']))

    await open(root.page, url('demo.localhost', '/user/edit/prof2@demo'))
    await root.page.getByRole('checkbox', { name: /^manager/ }).check()
    await root.page.getByRole('button', { name: pt['resources.user.save'] }).click()
    await expect.poll(() => new URL(root.page.url()).pathname, SLOW).toBe('/user')
    const row = root.page.locator('table.data tbody tr', { hasText: 'prof2@demo' })
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('teacher, manager')

    await prof.page.reload()
    await prof.page.waitForSelector(NAV)
    const after = await sections(prof.page)
    expect(after).toEqual(expectedSections(['teacher', 'manager']))
    expect(after).toContain(pt['nav.users'])
    expect(after.length).toBeGreaterThan(expectedSections(['teacher']).length)
    expect(root.errors).toEqual([])
    await prof.context.close()
    await root.context.close()
  })

  it('uploads an image asset with a progress bar and copies its link', async () => {
    const { context, page, errors } = await signedInPage('root', '/asset/create')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url('demo.localhost', '') })
    // A slow uplink so the progress of the upload is on screen while it runs.
    const cdp = await context.newCDPSession(page)
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 4_000_000, uploadThroughput: 400_000 })
    const png = Buffer.alloc(2_000_000)
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 3, 0x20, 0, 0, 2, 0x58, 8, 6, 0, 0, 0]).copy(png)
    await page.getByLabel(pt['resources.asset.fields.name']).fill('Cartaz da feira')
    await page.getByLabel(pt['resources.asset.fields.file']).setInputFiles({ name: 'cartaz.png', mimeType: 'image/png', buffer: png })
    const progress = page.getByRole('progressbar', { name: pt['upload.progress'] })
    await progress.waitFor({ state: 'visible' })
    expect(Number(await progress.getAttribute('value'))).toBeLessThan(1)
    await expect.poll(() => page.locator('.uploaded-file').textContent(), { timeout: 30_000 }).toContain('cartaz.png')
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    expect(await page.getByLabel(pt['resources.asset.fields.type']).inputValue()).toBe('image')

    const link = await page.getByRole('textbox', { name: pt['resources.asset.fields.url'] }).inputValue()
    expect(link).toMatch(/^http:\/\/demo\.localhost:\d+\/files\/demo\/\d{4}\/\d{2}\/[\w-]+\.png$/)
    await page.getByRole('button', { name: pt['resources.asset.copy_link'] }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link)

    await page.getByRole('button', { name: pt['resources.asset.save'], exact: true }).click()
    await expect.poll(() => new URL(page.url()).pathname, SLOW).toBe('/asset')
    const row = page.locator('table.data tbody tr', { hasText: 'Cartaz da feira' })
    await page.evaluate(() => navigator.clipboard.writeText(''))
    await row.getByRole('button', { name: pt['resources.asset.copy_link_of'].replace('{{name}}', 'Cartaz da feira') }).click()
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link)
    const served = await page.evaluate(async (href) => {
      const res = await fetch(href)
      return { status: res.status, type: res.headers.get('content-type'), nosniff: res.headers.get('x-content-type-options') }
    }, link)
    expect(served).toEqual({ status: 200, type: 'image/png', nosniff: 'nosniff' })
    expect(errors).toEqual([])
    await context.close()
  })
  it('creates and edits an extra field in its dialog on the form kit: live rules, the API’s refusal on its field, a toast', async () => {
    const { context, page } = await signedInPage('root', '/realm/extra_field')
    await page.waitForSelector('html[data-hydrated="true"]')
    const key = `k${Date.now().toString(36)}`
    const dialog = page.getByRole('dialog')
    const field = (k: string) => dialog.getByRole('textbox', { name: pt[`resources.extra_field.fields.${k}`] })
    const save = dialog.getByRole('button', { name: pt['resources.extra_field.save'] })
    await page.getByRole('button', { name: pt['resources.extra_field.create'] }).click()
    await field('key').fill('1x')
    await save.click()
    // A submit with errors: the summary, the first invalid field focused, messages in the page language.
    await expect.poll(() => dialog.locator('.error-summary').count()).toBe(1)
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('key')
    expect(await field('label').getAttribute('aria-invalid')).toBe('true')
    await field('key').fill(key)
    await field('label').fill(`Campo ${key}`)
    await save.click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: pt['resources.extra_field.saved'] }).count()).toBe(1)
    expect(await dialog.count()).toBe(0)
    await expect.poll(() => page.getByRole('row', { name: new RegExp(`Campo ${key}`) }).count()).toBe(1)

    // The same key again: the API's refusal lands under the key field.
    await page.getByRole('button', { name: pt['resources.extra_field.create'] }).click()
    await field('key').fill(key)
    await field('label').fill('Outro')
    await save.click()
    await expect.poll(() => dialog.locator('.field-invalid .error').textContent()).toBe(pt['validation.extra_key_taken'])
    expect(await field('key').getAttribute('aria-invalid')).toBe('true')
    await dialog.getByRole('button', { name: pt['settings.cancel'] }).click()

    await page.getByRole('button', { name: pt['resources.extra_field.edit'].replace('{{label}}', `Campo ${key}`) }).click()
    await field('position').fill('-1')
    await save.click()
    await expect.poll(() => field('position').getAttribute('aria-invalid')).toBe('true')
    await field('position').fill('7')
    await field('label').fill(`Campo ${key} 2`)
    await save.click()
    await expect.poll(() => dialog.count()).toBe(0)
    await page.reload()
    expect(await page.getByRole('row', { name: new RegExp(`Campo ${key} 2`) }).textContent()).toContain('7')
    await context.close()
  })
  it('saves the global configuration on the form kit: a bad line under its field, and without script the flash after the save', async () => {
    const { context, page } = await signedInPage('platform', '/realm/global_config')
    await page.waitForSelector('html[data-hydrated="true"]')
    const hosts = page.getByRole('textbox', { name: pt['global_config.fields.blocked_media_hosts'] })
    const before = await hosts.inputValue()
    const typed = `${before}\nab`.trim()
    await hosts.fill(typed)
    await hosts.blur()
    await expect.poll(() => hosts.getAttribute('aria-invalid')).toBe('true')
    // The error of one line names it (the last line here).
    expect(await page.locator('.field-invalid .error').textContent()).toBe(lineError(typed.split('\n').length, pt['validation.min_length']))

    const { context: bare, page: p } = await openPageWithoutScript(context)
    await p.goto(url('demo.localhost', '/realm/global_config'))
    const zone = p.getByRole('textbox', { name: pt['global_config.fields.default_time_zone'] })
    const zoneBefore = await zone.inputValue()
    await zone.fill('Mars/Olympus')
    await p.getByRole('button', { name: pt['global_config.save'] }).click()
    await p.waitForLoadState()
    expect(await zone.inputValue()).toBe('Mars/Olympus')
    expect(await zone.getAttribute('aria-invalid')).toBe('true')
    expect(await p.locator('.error-summary').textContent()).toContain(pt['validation.time_zone'])
    await zone.fill(zoneBefore)
    await p.getByRole('button', { name: pt['global_config.save'] }).click()
    await p.waitForLoadState()
    expect(await p.getByRole('status').filter({ hasText: pt['global_config.saved'] }).count()).toBe(1)
    expect(await p.getByRole('textbox', { name: pt['global_config.fields.blocked_media_hosts'] }).inputValue()).toBe(before)
    await bare.close()
    await context.close()
  })

  it('the word filter names the line of a bad sentence (blank lines counted), then saves and keeps the list', async () => {
    const { context, page, errors } = await signedInPage('root', '/realm/word_filter')
    await page.waitForSelector('html[data-hydrated="true"]')
    const box = page.getByRole('textbox', { name: new RegExp(pt['word_filter.sentences'].split('(')[0].trim()) })
    const before = await box.inputValue()
    await box.fill('frase boa\n\nx\noutra frase')
    await page.getByRole('button', { name: pt['word_filter.save'] }).click()
    await expect.poll(() => page.locator('.field-invalid .error').textContent()).toBe(lineError(3, pt['validation.min_length']))
    expect(await page.locator('.error-summary').textContent()).toContain(lineError(3, pt['validation.min_length']))
    expect(await box.evaluate((el: Element) => el === document.activeElement)).toBe(true)
    const sentences = [...before.split('\n').filter(Boolean), 'frase nova do teste']
    await box.fill(sentences.join('\n'))
    await page.getByRole('button', { name: pt['word_filter.save'] }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: pt['word_filter.saved'] }).count()).toBe(1)
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    expect((await box.inputValue()).split('\n')).toEqual([...sentences].sort())
    expect(errors).toEqual([])
    await context.close()
  })

  it('creates and edits a user without script: the errors under their fields with the typed values kept, then the save and its flash', async () => {
    const session = await signedInPage('root', '/user/create')
    const { context: bare, page } = await openPageWithoutScript(session.context)
    await session.context.close()
    await page.goto(url('demo.localhost', '/user/create'))
    const nick = `semjs${Date.now().toString(36).slice(-4)}`
    const field = (name: string) => page.getByRole('textbox', { name: new RegExp(`^${name}`) })
    await field(pt['resources.user.fields.nick']).fill(nick)
    await field(pt['resources.user.fields.name']).fill('Sem Script')
    await field(pt['resources.user.fields.email']).fill('nao-e-email')
    await page.getByRole('checkbox', { name: /^teacher/ }).check()
    await page.getByRole('button', { name: pt['resources.user.save'] }).click()
    await page.waitForLoadState('load')
    expect(new URL(page.url()).pathname).toBe('/user/create')
    expect(await page.locator('.field-invalid .error').allTextContents()).toEqual([pt['validation.email']])
    expect(await page.locator('.error-summary').textContent()).toContain(pt['validation.email'])
    expect(await field(pt['resources.user.fields.nick']).inputValue()).toBe(nick)
    expect(await page.getByRole('checkbox', { name: /^teacher/ }).isChecked()).toBe(true)
    await field(pt['resources.user.fields.email']).fill('sem.script@example.com')
    await page.getByRole('button', { name: pt['resources.user.save'] }).click()
    await page.waitForLoadState('load')
    expect(new URL(page.url()).pathname).toBe('/user')
    expect(await page.locator('.toast-success').textContent()).toContain(`${nick}@demo`)

    await page.goto(url('demo.localhost', `/user/edit/${nick}@demo`))
    await field(pt['resources.user.fields.name']).fill('Nome Trocado')
    await page.getByRole('button', { name: pt['resources.user.save'] }).click()
    await page.waitForLoadState('load')
    expect(new URL(page.url()).pathname).toBe('/user')
    await page.goto(url('demo.localhost', `/user/edit/${nick}@demo`))
    expect(await field(pt['resources.user.fields.name']).inputValue()).toBe('Nome Trocado')
    expect(await field(pt['resources.user.fields.email']).inputValue()).toBe('sem.script@example.com')
    expect(await page.getByRole('checkbox', { name: /^teacher/ }).isChecked()).toBe(true)
    await bare.close()
  })
})
