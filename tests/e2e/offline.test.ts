import { afterAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../support/server'
import { expectConsoleErrors, openPage, signInOnScreen } from './browser'

let server: RunningServer | undefined
afterAll(async () => {
  await server?.stop()
})

describe('the service worker (production build)', () => {
  it('starts on its cached shell when the server cannot be reached, and leaves blacklisted URLs', { timeout: 240_000 }, async () => {
    server = await startServer()
    const base = `http://demo.localhost:${server.port}`
    const { page } = await openPage()
    // The server is stopped on purpose below: what the page still asks of it fails to load (the refusal reads
    // differently by timing), and Remix's route discovery says it could not fetch the manifest.
    expectConsoleErrors(page, /net::ERR_(CONNECTION_REFUSED|SOCKET_NOT_CONNECTED|CONNECTION_RESET|EMPTY_RESPONSE)/, /Failed to fetch manifest patches/)
    await page.goto(`${base}/`)
    await page.waitForSelector('html[data-hydrated="true"]')
    await signInOnScreen(page, 'manager')
    await page.waitForSelector('nav[aria-label="Navegação principal"]')
    await expect.poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active)), { timeout: 20_000 }).toBe(true)

    // Blacklisted URLs unregister the worker and clear its caches.
    await page.goto(`${base}/deeplink?nosw=1`)
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0)
    // The caches go just after the registration: waited for, not read at once (it raced on a loaded machine).
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).length)).toBe(0)

    // Back on a normal page it registers again; then the server goes away.
    await page.goto(`${base}/`)
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.evaluate(async () => Boolean((await navigator.serviceWorker.ready).active)), { timeout: 20_000 }).toBe(true)
    await expect.poll(() => page.evaluate(async () => (await caches.keys()).some((k) => k.startsWith('console-shell-')))).toBe(true)
    await server.stop()
    server = undefined
    await page.goto(`${base}/realm/role`).catch(() => undefined)
    await expect.poll(() => page.locator('h1').textContent()).toBe('Você está sem conexão')
  })
})
