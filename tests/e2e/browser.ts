import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { inject } from 'vitest'

export const port = () => inject('port')
export const partyPort = () => inject('partyPort')

/** http://<host>:<port><path> on the server the suite started. */
export function url(host: string, path = '/'): string {
  return `http://${host}:${port()}${path}`
}

/** Debian's Chromium, headless, with background networking off (the machine has no outside network). */
export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-quic',
      '--no-first-run',
    ],
  })
}

/** A fresh browser context (its own cookies) whose page fails the test on any uncaught page error. */
export async function newPage(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale: 'pt-BR', ...options })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (err) => errors.push(String(err)))
  return { context, page, errors }
}

/** Opens a page and waits until React has hydrated it, so interactions reach their handlers. */
export async function open(page: Page, target: string) {
  const response = await page.goto(target)
  await hydrated(page)
  return response
}

/** Waits until the page's script has taken over: buttons that need it do nothing before. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]')
}

/** Signs in on the sign-in screen currently shown. */
export async function signInOnScreen(page: Page, nick: string, password = 'demo1234'): Promise<void> {
  await page.getByLabel('Usuário').fill(nick)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
}
