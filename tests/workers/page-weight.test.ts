import * as build from 'remix-server-build'
import { describe, expect, inject, it } from 'vitest'
import { DEMO, call, consoleSignIn, cookieValue } from './helpers'

/**
 * What a first visit downloads, read from the served HTML and the build's manifest (no timings): the sign-in page
 * loads none of the console, pages link KaTeX's stylesheet only where formulas show, and each page preloads the
 * catalogue files it needs (tests/bench/bundle.bench.ts prints the bytes).
 */
const routes = build.assets.routes

/** Every script a page's HTML names (modulepreload links, module scripts and the inline route imports). */
function scriptsOf(html: string): Set<string> {
  const found = new Set<string>()
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) found.add(m[1])
  for (const m of html.matchAll(/import(?:\s*\*\s*as\s+\w+\s+from)?\s*"(\/assets\/[^"]+\.js)"/g)) found.add(m[1])
  return found
}

/** Chunks that only the console layout (shell, presence socket, account menu …) needs: not root, login or entry. */
function consoleOnlyChunks(): string[] {
  const layout = routes['routes/_console+/_layout']
  const light = new Set([
    ...build.assets.entry.imports,
    build.assets.entry.module,
    ...['root', 'routes/login'].flatMap((id) => [routes[id].module, ...(routes[id].imports ?? [])]),
  ])
  return [layout.module, ...(layout.imports ?? [])].filter((chunk) => !light.has(chunk))
}

describe('the sign-in page is its own light route', () => {
  it('sends a first visit of a console page to /login, which loads none of the console', async () => {
    const first = await call(DEMO, '/')
    expect(first.status).toBe(302)
    expect(first.headers.get('location')).toBe('/login')
    const html = await (await call(DEMO, '/login')).text()
    const scripts = scriptsOf(html)
    expect(scripts.has(build.assets.entry.module)).toBe(true)
    expect(scripts.has(routes['routes/login'].module)).toBe(true)
    const consoleOnly = consoleOnlyChunks()
    // The shell (and the presence socket it opens) is what the console layout adds: it must be a chunk of its own.
    expect(consoleOnly.length).toBeGreaterThan(0)
    for (const chunk of consoleOnly) expect(scripts.has(chunk), chunk).toBe(false)
    expect(scripts.has(routes['routes/_console+/_index'].module)).toBe(false)
  })

  it('loads the console layout on a signed-in page (the check above can see it)', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const scripts = scriptsOf(await (await call(DEMO, '/', { headers: { cookie } })).text())
    expect(scripts.has(routes['routes/_console+/_layout'].module)).toBe(true)
    expect(consoleOnlyChunks().every((chunk) => scripts.has(chunk))).toBe(true)
  })
})

describe('stylesheets and catalogues per page', () => {
  const katex = /<link rel="stylesheet" href="\/assets\/katex[^"]*\.css"/
  const catalogues = (html: string) =>
    [...html.matchAll(/<link rel="preload" as="fetch" crossorigin="anonymous" href="(\/assets\/i18n-[^"]+\.json)" data-catalogue="(\w+)"/g)].map((m) => m[2])

  it('links KaTeX only on pages that show formulas', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    expect(await (await call(DEMO, '/login')).text()).not.toMatch(katex)
    const list = await call(DEMO, '/user', { headers: { cookie } })
    expect(list.status).toBe(200)
    expect(await list.text()).not.toMatch(katex)
    const editor = await call(DEMO, '/tms/model/create', { headers: { cookie } })
    expect(editor.status).toBe(200)
    expect(await editor.text()).toMatch(katex)
  })

  it('preloads the active language only: the sign-in group on /login, both groups on console pages', async () => {
    const login = await (await call(DEMO, '/login')).text()
    expect(catalogues(login)).toEqual(['signin'])
    expect(login).toContain('/assets/i18n-pt-BR-signin-')
    expect(login).not.toContain('/assets/i18n-en-US-')
    const english = await (await call(DEMO, '/login', { headers: { cookie: `lng=${cookieValue('en-US')}` } })).text()
    expect(catalogues(english)).toEqual(['signin'])
    expect(english).toContain('/assets/i18n-en-US-signin-')
    expect(english).not.toContain('/assets/i18n-pt-BR-')
    const cookie = await consoleSignIn(DEMO, 'root')
    const page = await (await call(DEMO, '/user', { headers: { cookie } })).text()
    expect(catalogues(page)).toEqual(['signin', 'console'])
    expect(page).not.toContain('/assets/i18n-en-US-')
  })
})

/** The scripts a page's HTML names, in gzip bytes of the built files (tests/workers/global-setup.ts measures them). */
function scriptBytes(html: string): { total: number; files: Record<string, number> } {
  const sizes = inject('scriptSizes')
  const files: Record<string, number> = {}
  for (const src of scriptsOf(html)) {
    expect(sizes[src], `${src} is not in build/client`).toBeGreaterThan(0)
    files[src] = sizes[src]
  }
  return { total: Object.values(files).reduce((a, b) => a + b, 0), files }
}

/**
 * Budgets of the scripts a first visit loads (gzip). Issue 12's goals are 100 KB for the sign-in page and 150 KB for
 * a list page; React DOM with Remix (82 KB), React (4 KB) and i18next with react-i18next (17 KB) alone are about
 * 101 KB, so the sign-in goal cannot be met while they stay. Both budgets sit just above today's weight (sign-in
 * 121.0 KB since icons are a sprite and the captcha widget a lazy chunk; /user 146.0 KB) so that a change adding
 * weight fails here. The bench prints the figures.
 */
const SIGNIN_JS_BUDGET = 122 * 1024
const LIST_JS_BUDGET = 147 * 1024

describe('script weight of a first visit', () => {
  it('the sign-in page stays within its budget', async () => {
    const { total, files } = scriptBytes(await (await call(DEMO, '/login')).text())
    expect(total, JSON.stringify(files, null, 1)).toBeLessThanOrEqual(SIGNIN_JS_BUDGET)
  })

  it('a list page (/user) stays within its budget', async () => {
    const cookie = await consoleSignIn(DEMO, 'root')
    const page = await call(DEMO, '/user', { headers: { cookie } })
    expect(page.status).toBe(200)
    const { total, files } = scriptBytes(await page.text())
    expect(total, JSON.stringify(files, null, 1)).toBeLessThanOrEqual(LIST_JS_BUDGET)
  })
})

/**
 * Bytes of a page's HTML (demo realm, signed in as root). Icons are references into one cached sprite file
 * (app/components/ui/icons.svg), so a page carries no icon path data; the budgets sit just above today's weight so
 * that a change bringing inline icons (or other bulk) back fails here (measured: home 44.4 KB, /user 56.3 KB, with
 * 58 and 73 icons; before the sprite every icon carried its path). The bench prints the figures of the bench realm.
 */
const HOME_HTML_BUDGET = 46_000
const LIST_HTML_BUDGET = 58_000

describe('HTML weight of console pages', () => {
  for (const [path, budget] of [
    ['/', HOME_HTML_BUDGET],
    ['/user', LIST_HTML_BUDGET],
  ] as const) {
    it(`${path} references the icon sprite, inlines no icon path and stays within ${budget} bytes`, async () => {
      const cookie = await consoleSignIn(DEMO, 'root')
      const page = await call(DEMO, path, { headers: { cookie } })
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).not.toContain('<path')
      const icons = html.match(/<svg[^>]*><use href="\/assets\/icons-[\w-]+\.svg#\w+"><\/use><\/svg>/g) ?? []
      expect(icons.length).toBeGreaterThan(10)
      expect(html.match(/<svg/g)?.length).toBe(icons.length)
      expect(new TextEncoder().encode(html).length).toBeLessThanOrEqual(budget)
    })
  }
})

describe('the captcha widget is its own chunk', () => {
  it('is not loaded by the sign-in page of a realm whose sign-in asks for no captcha', async () => {
    const chunks = Object.keys(inject('scriptSizes')).filter((src) => /^\/assets\/captcha-[\w-]+\.js$/.test(src))
    expect(chunks).toHaveLength(1)
    const html = await (await call(DEMO, '/login')).text()
    expect(html).not.toContain('captcha_token')
    expect(scriptsOf(html).has(chunks[0])).toBe(false)
  })
})
