import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * The conference deep link (issue 13) as a visitor meets it: the page offers the three ways in (the app, the store of
 * the visitor's platform, the browser), on a desktop and on phones; an unknown channel is a clear not-found page; the
 * channel's edit screen copies the shared link that opens it.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1'
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36'
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

/** A channel of demo, made through the API (root owns it). */
async function channel(name: string): Promise<string> {
  const api = await realmApi('demo', 'root')
  const created = await api<{ id: string }>('POST', 'channel', { name, members: [{ nick: 'root@demo', permission: 'owner' }] })
  return created.id
}

const choices = (page: import('playwright-core').Page) => page.locator('[data-choice]')

describe('conference deep link', () => {
  it('offers the app, both stores and the browser on a desktop, with the realm’s branding', async () => {
    const id = await channel(`Conferência ${tag}`)
    const { page } = await openPage({ viewport: { width: 1280, height: 800 } })
    await open(page, url('demo.localhost', `/deeplink?channel=${id}`))
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['deeplink.title'])
    expect(await page.locator('.deeplink-channel').textContent()).toContain(`Conferência ${tag}`)
    expect(await page.locator('.entry-logo img').getAttribute('alt')).toBe('Demo Academy')
    expect(await choices(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-choice')))).toEqual(['app', 'store-ios', 'store-android', 'browser'])
    const app = page.getByRole('link', { name: pt['deeplink.open_app'] })
    expect(await app.getAttribute('href')).toBe(`demoacademy://channel/${id}?realm=demo`)
    expect(await page.getByRole('link', { name: pt['deeplink.ios'] }).getAttribute('href')).toMatch(/^https:\/\/apps\.apple\.com\//)
    expect(await page.getByRole('link', { name: pt['deeplink.android'] }).getAttribute('href')).toMatch(/^https:\/\/play\.google\.com\//)
    // demo has no web client: the browser continues in the participant view.
    expect(await page.getByRole('link', { name: pt['deeplink.browser'] }).getAttribute('href')).toBe(`/live/${id}`)
  })

  it('offers only the App Store on an iPhone and only Google Play on Android, in a phone’s width', async () => {
    const id = await channel(`Celular ${tag}`)
    for (const [userAgent, store, other] of [
      [IPHONE, 'store-ios', 'store-android'],
      [ANDROID, 'store-android', 'store-ios'],
    ]) {
      const { page } = await openPage({ ...PHONE, userAgent })
      await open(page, url('demo.localhost', `/deeplink?channel=${id}`))
      const found = await choices(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-choice')))
      expect(found).toEqual(['app', store, 'browser'])
      expect(found).not.toContain(other)
      // Every choice fits the phone's width (no sideways scrolling).
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
      await page.context().close()
    }
  })

  it('shows a clear not-found page for an unknown channel', async () => {
    const { page } = await openPage()
    // Deliberate: the page answers 404 for a channel that does not exist (the browser logs the status).
    expectConsoleErrors(page, /status of 404/)
    const res = await open(page, url('demo.localhost', '/deeplink?channel=nao-existe'))
    expect(res?.status()).toBe(404)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['deeplink.error.channel'])
    expect(await page.getByRole('alert').textContent()).toContain(pt['deeplink.not_found'])
    expect(await choices(page).count()).toBe(0)
  })

  it('copies the channel’s shared link on its edit screen, and the link opens the deep-link page', async () => {
    const id = await channel(`Compartilhado ${tag}`)
    const { page, context } = await signedInPage('root', `/channel/edit/${id}`)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url('demo.localhost', '/').replace(/\/$/, '') })
    await page.waitForSelector('html[data-hydrated="true"]')
    const field = page.getByRole('textbox', { name: pt['channel.share.title'] })
    const link = await field.inputValue()
    expect(link).toBe(url('demo.localhost', `/deeplink?channel=${id}`))
    await page.getByRole('button', { name: pt['channel.share.copy'] }).click()
    await expect.poll(() => page.locator('.toast').last().textContent()).toContain(pt['channel.share.copied'])
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link)

    const visitor = await openPage()
    await open(visitor.page, link)
    expect(await visitor.page.locator('.deeplink-channel').textContent()).toContain(`Compartilhado ${tag}`)
  })
})
