import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { inject } from 'vitest'

export const port = () => inject('port')
export const partyPort = () => inject('partyPort')

/** http://<host>:<port><path> on the server the suite started. */
export function url(host: string, path = '/'): string {
  return `http://${host}:${port()}${path}`
}

/** Debian's Chromium, headless, with background networking off (the machine has no outside network). */
export function launch(extraArgs: string[] = []): Promise<Browser> {
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
      ...extraArgs,
    ],
  })
}

/**
 * Browser console errors every test may meet. Chromium logs each HTTP 4xx answer as "Failed to load resource": the
 * product answers 401 with the sign-in screen, 403/404/409 with its own pages and envelopes, and the tests assert those
 * statuses themselves; these are network notices, not errors of the page. Anything the page's own code logs with
 * console.error, and every uncaught error, still fails the test. A message expected by one test only is declared
 * there with expectConsoleErrors (e.g. failed loads while a test has stopped the server).
 * Remix's single fetch also logs the AbortError of a data request the router itself cancelled (a revalidation
 * overtaken by a newer navigation, seen under load) before dropping it: the router's own cancellation, not a failure.
 */
const EXPECTED_EVERYWHERE: RegExp[] = [
  /^console\.error: Failed to load resource: the server responded with a status of 4\d\d /,
  /^console\.error: AbortError: signal is aborted without reason/,
]

interface Watched {
  page: Page
  /** Console errors and uncaught page errors not yet checked. */
  messages: string[]
  expected: RegExp[]
}
const watched: Watched[] = []

/**
 * A fresh browser context (its own cookies) whose page fails the test on any browser console error or uncaught page
 * error (checked after each test by tests/e2e/setup.ts); `errors` lists the uncaught page errors for tests that look
 * at them as they go.
 */
export async function newPage(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ locale: 'pt-BR', ...options })
  const page = await context.newPage()
  const errors: string[] = []
  const entry: Watched = { page, messages: [], expected: [] }
  watched.push(entry)
  page.on('pageerror', (err) => {
    errors.push(String(err))
    entry.messages.push(`page error: ${String(err)}`)
  })
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return
    const where = msg.location().url
    entry.messages.push(`console.error: ${msg.text()}${where ? ` (${where})` : ''}`)
  })
  return { context, page, errors }
}

/**
 * The test file's one browser: launched on the first `openPage()` and closed after the file's last test
 * (tests/e2e/setup.ts), so a test file needs no launch or close of its own.
 */
let fileBrowser: Promise<Browser> | null = null
let fileBrowserArgs: string[] = []

/**
 * Extra Chromium flags for this test file's browser only (call before the file's first `openPage()`), e.g. the fake
 * media devices of the conference test.
 */
export function fileBrowserFlags(...args: string[]): void {
  fileBrowserArgs = args
}

/**
 * A fresh page in its own context (cookies) of the file's browser, watched like newPage's (any console or page error
 * fails the test); `options` as Browser.newContext's (locale pt-BR unless given, viewport, javaScriptEnabled…).
 */
export async function openPage(options: Parameters<Browser['newContext']>[0] = {}) {
  fileBrowser ??= launch(fileBrowserArgs)
  return newPage(await fileBrowser, options)
}

/**
 * A page of the file's browser with JavaScript off, signed in as `from` is (its cookies copied): what a user without
 * script sees of the same session.
 */
export async function openPageWithoutScript(from: BrowserContext, options: Parameters<Browser['newContext']>[0] = {}) {
  const opened = await openPage({ ...options, javaScriptEnabled: false })
  await opened.context.addCookies(await from.cookies())
  return opened
}

/**
 * A page of the file's browser signed in as `nick` on `path` (the sign-in screen the console shows there), once the
 * console's navigation is on screen. `host` defaults to the demo realm's; `options` as openPage's (1280×900 unless
 * given).
 */
export async function signedInPage(
  nick: string,
  path = '/',
  { host = 'demo.localhost', password = 'demo1234', ...options }: Parameters<Browser['newContext']>[0] & { host?: string; password?: string } = {},
) {
  const session = await openPage({ viewport: { width: 1280, height: 900 }, ...options })
  await open(session.page, url(host, path))
  await signInOnScreen(session.page, nick, password)
  await session.page.waitForSelector('nav[aria-label="Navegação principal"]')
  return session
}

/** Closes the file's browser, if a test opened it (tests/e2e/setup.ts, after the file's last test). */
export async function closeFileBrowser(): Promise<void> {
  const browser = fileBrowser
  fileBrowser = null
  fileBrowserArgs = []
  if (browser) await (await browser).close()
}

/** Declares console errors `page` is expected to log in this test (a deliberate failure, such as going offline). */
export function expectConsoleErrors(page: Page, ...patterns: RegExp[]): void {
  const entry = watched.find((w) => w.page === page)
  if (!entry) throw new Error('expectConsoleErrors: not a page from newPage()')
  entry.expected.push(...patterns)
}

/** The console and page errors logged since the last check that nothing expects (and forgets closed pages). */
export function unexpectedBrowserErrors(): string[] {
  const found: string[] = []
  for (const entry of watched) {
    const allowed = [...EXPECTED_EVERYWHERE, ...entry.expected]
    found.push(...entry.messages.filter((m) => !allowed.some((re) => re.test(m))))
    entry.messages = []
  }
  for (let i = watched.length - 1; i >= 0; i--) if (watched[i].page.isClosed()) watched.splice(i, 1)
  return found
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

/**
 * Signs in on the sign-in screen currently shown, and waits for the page the answer loads to take over. The sign-in
 * form posts as a document (the sign-in page is not hydrated): the console's page then arrives server-rendered and
 * hydrates after, so a test interacting at once could click before React listens.
 */
export async function signInOnScreen(page: Page, nick: string, password = 'demo1234'): Promise<void> {
  await page.getByLabel('Usuário').fill(nick)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  // The mark of this document goes, so the wait below sees the next document's.
  await page.evaluate(() => delete document.documentElement.dataset.hydrated)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await hydrated(page)
}

/**
 * The realm API of `realm` as `nick` (a token from POST /api/device), reached on the multi-realm host with
 * `x-api-realm`: how a test makes the rows it needs instead of leaning on demo ids.
 */
export async function realmApi(realm: string, nick: string, password = 'demo1234') {
  const headers = { 'content-type': 'application/json', 'x-api-realm': realm }
  const signin = await fetch(url('localhost', '/api/device'), { method: 'POST', headers, body: JSON.stringify({ realm, nick, password }) })
  if (signin.status !== 200) throw new Error(`sign-in of ${nick}@${realm}: ${signin.status} ${await signin.text()}`)
  const { auth_token } = (await signin.json()) as { auth_token: string }
  // A Uint8Array body is sent as bytes (a recording's part), anything else as JSON.
  return async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<T> => {
    const raw = body instanceof Uint8Array
    const res = await fetch(url('localhost', `/api/${path}`), {
      method,
      headers: { ...headers, ...(raw ? { 'content-type': 'application/octet-stream' } : {}), 'x-api-key': auth_token },
      body: body === undefined ? undefined : raw ? new Uint8Array(body) : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
}
