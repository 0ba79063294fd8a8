import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { visibleNav } from '~/lib/navigation'
import { permissionMap } from '#shared/schemas/permission'
import { DEMO_ROLES } from '../../worker/seed/demo'
import { expectConsoleErrors, open, openPage, signedInPage, signInOnScreen, url } from './browser'

const pt = catalogues['pt-BR']

/** The sections a seeded role should see, from the manifest and the seed: the screen must show exactly these. */
function expectedSections(role: string): string[] {
  const granted = DEMO_ROLES.find((r) => r.role === role)!.permissions
  return visibleNav(permissionMap(granted), { ledger_enabled: true, persona_enabled: true }).map((s) => pt[s.label])
}

describe('the console shell', () => {
  it.each(['root', 'teacher', 'manager'])('shows %s exactly the sidebar sections their permissions allow', async (nick) => {
    const { context, page, errors } = await signedInPage(nick)
    const nav = page.getByRole('navigation', { name: 'Navegação principal' })
    const shown = (await nav.locator(':scope > ul > li > .nav-link .nav-label, :scope > ul > li > a .nav-label').allTextContents()).filter(
      (l) => l !== pt['nav.overview'],
    )
    expect(shown).toEqual(expectedSections(nick))
    expect(errors).toEqual([])
    await context.close()
  })

  it('marks the current page, reaches the sidebar by keyboard, and collapses to icons', async () => {
    const { context, page } = await signedInPage('root', '/realm/role')
    const current = page.locator('nav[aria-label="Navegação principal"] [aria-current="page"]')
    await expect.poll(() => current.textContent()).toBe(pt['pages.role.list'])
    const sidebar = page.locator('#sidebar')
    expect(Math.round((await sidebar.boundingBox())!.width)).toBe(240)
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.width)).toBe(64)
    await page.keyboard.press('Tab')
    await context.close()
  })

  it('is a closed drawer on narrow screens that closes again after navigation', async () => {
    const { context, page } = await signedInPage('root')
    await page.setViewportSize({ width: 700, height: 900 })
    const sidebar = page.locator('#sidebar')
    await expect.poll(async () => (await sidebar.boundingBox())!.x < 0).toBe(true)
    await page.getByRole('button', { name: 'Menu' }).click()
    await expect.poll(async () => Math.round((await sidebar.boundingBox())!.x)).toBe(0)
    await page.getByRole('button', { name: pt['nav.realm'], exact: true }).click()
    await page.locator('#sidebar').getByRole('link', { name: pt['pages.realm.list'], exact: true }).click()
    await expect.poll(() => page.url()).toContain('/realm')
    await expect.poll(async () => (await sidebar.boundingBox())!.x < 0).toBe(true)
    await context.close()
  })

  it('keeps theme and direction across reloads, applied by the server (no flash)', async () => {
    const { context, page } = await signedInPage('manager')
    await page.getByRole('button', { name: /Conta/ }).click()
    await page.getByRole('button', { name: pt['settings.title'] }).click()
    await page.getByText(pt['settings.theme.DARK'], { exact: true }).click()
    await page.getByText(pt['settings.direction.rtl']).click()
    await page.getByRole('button', { name: pt['settings.save'] }).click()
    await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe('DARK')
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl')

    // The document as the server sends it already carries the choice, before any script runs.
    const html = await page.evaluate(async () => (await fetch('/', { headers: { accept: 'text/html' } })).text())
    expect(html).toMatch(/<html[^>]*data-theme="DARK"/)
    expect(html).toMatch(/<html[^>]*dir="rtl"/)
    await page.reload()
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(15, 17, 21)')
    await context.close()
  })

  it('warns before leaving the role editor with unsaved changes', async () => {
    const { context, page } = await signedInPage('root', '/realm/role/create')
    await page.getByLabel(pt['resources.role.fields.role']).fill('draft-role')
    await page.locator('nav[aria-label="Navegação principal"]').getByRole('link', { name: pt['nav.overview'] }).click()
    const dialog = page.getByRole('dialog', { name: pt['unsaved.title'] })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    await dialog.getByRole('button', { name: pt['unsaved.stay'] }).click()
    expect(new URL(page.url()).pathname).toBe('/realm/role/create')
    expect(await page.getByLabel(pt['resources.role.fields.role']).inputValue()).toBe('draft-role')

    // Reloading or closing the tab asks through the browser's own prompt.
    const prompted = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.accept())))
    await page.reload()
    expect(await prompted).toBe('beforeunload')
    await context.close()
  })

  it('exports as CSV exactly what the table shows', async () => {
    const { context, page } = await signedInPage('root', '/realm?order=-code')
    const cells = await page.locator('table.data tbody tr').evaluateAll((rows) =>
      // Data cells only: the selection checkbox and the row actions are not exported.
      rows.map((r) => [...r.querySelectorAll('td:not(.row-actions)')].slice(1).map((td) => td.textContent ?? '')),
    )
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Exportar CSV/ }).click()])
    const text = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '')
    const [header, ...rows] = text.trim().split('\r\n')
    const headers = await page.locator('table.data thead .th-label').allTextContents()
    expect(header.split(',')).toEqual(headers)
    // Same rows and columns; time columns ("Criado em") carry the ISO 8601 UTC instant in CSV, which is the day the
    // table shows in the realm's zone.
    const at = headers.indexOf('Criado em')
    const day = (iso: string) =>
      new Intl.DateTimeFormat('pt-BR', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso))
    const csv = rows.map((r) => r.split(','))
    for (const r of csv) expect(r[at]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/)
    expect(csv.map((r) => r.map((v, i) => (i === at ? day(v) : v)))).toEqual(cells)
    await context.close()
  })

  it('shows the not-available-yet state behind a real gate, and sends a role without it to /notfound', async () => {
    const root = await signedInPage('root', '/tms/model')
    await expect.poll(() => root.page.getByRole('heading', { level: 1 }).textContent()).toContain(pt['pages.tms.model.list'])
    await root.context.close()
    const student = await openPage()
    await open(student.page, url('demo.localhost', '/realm/role'))
    await signInOnScreen(student.page, 'teacher')
    await expect.poll(() => student.page.url()).toContain('/notfound?path=%2Frealm%2Frole')
    // Inside the shell, saying the page is refused and what is missing (translated), not "you are lost".
    await expect.poll(() => student.page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['access.denied.title'])
    expect(await student.page.locator('.sidebar').count()).toBe(1)
    expect(await student.page.getByText('Perfis de acesso: listar').count()).toBe(1)
    await student.context.close()
  })
})

describe('network status', () => {
  it('warns when the network drops, with the offline indicator, and clears when it is back', async () => {
    const { context, page } = await signedInPage('manager')
    // Offline on purpose: what the page asks meanwhile fails to load.
    expectConsoleErrors(page, /net::ERR_INTERNET_DISCONNECTED/)
    await context.setOffline(true)
    const toast = page.locator('.toast-top-center').getByRole('alert')
    await expect.poll(() => toast.textContent()).toContain(pt['error.http.offline'])
    expect(await page.locator('.network-indicator').getAttribute('title')).toBe(pt['network.offline'])
    await context.setOffline(false)
    await expect.poll(() => toast.count()).toBe(0)
    expect(await page.locator('.network-indicator').count()).toBe(0)
    await context.close()
  })
})
