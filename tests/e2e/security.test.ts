import type { BrowserContext, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, open, openPage, signInOnScreen, url } from './browser'

const pt = catalogues['pt-BR']
const NAV = 'nav[aria-label="Navegação principal"]'
const SLOW = { timeout: 20_000 }

/**
 * A page that records every Content-Security-Policy violation: the `securitypolicyviolation` events of each document
 * (listened to from an init script, which the page's policy does not govern) and the console's CSP reports.
 */
async function watchedPage(): Promise<{ context: BrowserContext; page: Page; errors: string[]; violations: () => Promise<string[]> }> {
  const { context, page, errors } = await openPage({ viewport: { width: 1280, height: 900 } })
  const reported: string[] = []
  await context.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { __csp: string[] }).__csp = seen
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`))
  })
  page.on('console', (msg) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(msg.text())) reported.push(msg.text())
  })
  const violations = async () => [...reported, ...(await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []))]
  return { context, page, errors, violations }
}

describe('the console under its Content-Security-Policy', () => {
  it('signs in and walks the overview, a list and the model editor with KaTeX without a single violation', async () => {
    const { context, page, errors, violations } = await watchedPage()
    const response = await open(page, url('demo.localhost', '/'))
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self' 'nonce-[^']+'/)
    expect(await violations()).toEqual([])
    await signInOnScreen(page, 'root')
    await page.waitForSelector(NAV, SLOW)
    // The overview's presence opens a WebSocket to PartyKit (connect-src).
    await expect.poll(() => page.locator('section[data-presence-status]').getAttribute('data-presence-status'), SLOW).toBe('open')
    expect(await violations()).toEqual([])

    // A list.
    await open(page, url('demo.localhost', '/realm'))
    await expect.poll(() => page.getByRole('cell', { name: 'demo-sul', exact: true }).count(), SLOW).toBe(1)
    expect(await violations()).toEqual([])

    // The model editor (reached by a client-side navigation, which loads route modules): a formula typeset by KaTeX.
    await open(page, url('demo.localhost', '/tms/model'))
    const edit = page.getByRole('link', { name: pt['tms.list.edit'].replace('{{name}}', 'Frações — atividade diagnóstica') }).first()
    await edit.click()
    await expect.poll(() => new URL(page.url()).pathname, SLOW).toMatch(/^\/tms\/model\/edit\//)
    await hydrated(page)
    await expect.poll(() => page.locator('.katex').count(), SLOW).toBeGreaterThan(0)
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('solves escola’s proof-of-work captcha in its Web Worker without a violation', async () => {
    const { context, page, errors, violations } = await watchedPage()
    const workers: string[] = []
    page.on('worker', (w) => workers.push(w.url()))
    await open(page, url('escola.localhost', '/'))
    await expect.poll(() => page.locator('[data-captcha-state]').getAttribute('data-captcha-state'), { timeout: 30_000 }).toBe('verified')
    expect(workers.some((w) => w.includes('pow.worker'))).toBe(true)
    expect(await violations()).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it('does not run an injected inline script or event handler that lacks the nonce', async () => {
    const { context, page, violations } = await watchedPage()
    // The blocked script and handler are the point of this test: Chromium reports each on the console.
    expectConsoleErrors(page, /violates the following Content Security Policy directive/)
    await open(page, url('demo.localhost', '/'))
    await page.evaluate(() => {
      const script = document.createElement('script')
      script.textContent = 'window.__injected = "script"'
      document.body.appendChild(script)
      const holder = document.createElement('div')
      holder.innerHTML = '<img src="data:," onerror="window.__injected = \'handler\'">'
      document.body.appendChild(holder)
    })
    await expect.poll(async () => (await violations()).length).toBeGreaterThanOrEqual(2)
    expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined()
    expect((await violations()).join('\n')).toMatch(/script-src/)
    await context.close()
  })
})
