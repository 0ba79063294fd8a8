import * as build from 'remix-server-build'
import { describe, expect, inject, it } from 'vitest'
import { DEMO, ESCOLA, call, consoleSignIn, cookieValue } from './helpers'

/**
 * What a first visit downloads, read from the served HTML and the build's manifest (no timings): the sign-in page
 * loads no React at all (one standalone module), pages link KaTeX's stylesheet only where formulas show, and each
 * hydrated page preloads the catalogue files it needs (tests/bench/bundle.bench.ts prints the bytes).
 */
const routes = build.assets.routes

/** Every script a page's HTML names (modulepreload links, module scripts and the inline route imports). */
function scriptsOf(html: string): Set<string> {
  const found = new Set<string>()
  for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) found.add(m[1])
  for (const m of html.matchAll(/import(?:\s*\*\s*as\s+\w+\s+from)?\s*"(\/assets\/[^"]+\.js)"/g)) found.add(m[1])
  for (const m of html.matchAll(/<script type="module" src="([^"]+)"/g)) found.add(m[1])
  return found
}

/** Every script of the Remix build the browser could load for a page (entry, each route's module and imports). */
function reactChunks(): Set<string> {
  return new Set([
    build.assets.entry.module,
    ...build.assets.entry.imports,
    ...Object.values(routes).flatMap((route) => [route.module, ...(route.imports ?? [])]),
  ])
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
  it('sends a first visit of a console page to /login, which loads no React, only the sign-in module', async () => {
    const first = await call(DEMO, '/')
    expect(first.status).toBe(302)
    expect(first.headers.get('location')).toBe('/login')
    // A document redirect: a client-side navigation that reaches it loads /login as a page of its own.
    expect(first.headers.get('x-remix-reload-document')).toBe('true')
    for (const host of [DEMO, ESCOLA]) {
      const html = await (await call(host, '/login')).text()
      const scripts = [...scriptsOf(html)]
      expect(scripts).toHaveLength(1)
      expect(scripts[0]).toMatch(/^\/assets\/signin-page\.entry-[\w-]+\.js$/)
      expect(reactChunks().has(scripts[0])).toBe(false)
      // No Remix context, no hydration scripts, no catalogue to fetch: the texts the module shows come translated.
      expect(html).not.toContain('__remixContext')
      expect(html).not.toContain('rel="modulepreload"')
      expect(html).toContain('data-texts=')
    }
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

  it('preloads the active language only: no catalogue on /login (rendered texts), both groups on console pages', async () => {
    const login = await (await call(DEMO, '/login')).text()
    expect(catalogues(login)).toEqual([])
    expect(login).not.toContain('/assets/i18n-')
    expect(login).toContain('Mostrar senha')
    const english = await (await call(DEMO, '/login', { headers: { cookie: `lng=${cookieValue('en-US')}` } })).text()
    expect(catalogues(english)).toEqual([])
    expect(english).toContain('Show password')
    expect(english).not.toContain('Mostrar senha')
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
 * a list page. React DOM with Remix, React and i18next alone weigh more than the first, so the sign-in page is not
 * hydrated: its one module (forms' behaviour, captcha, Google popup) was 4.9 KB when it came (121.0 KB before, with
 * React). The list budget sits just above today's weight (/user 147.0 KB: 146.0 before the router patches that keep
 * the server's route table, the hydration step and the publication dates' rules); both fail a change adding weight.
 * The bench prints the figures.
 */
const SIGNIN_JS_BUDGET = 6 * 1024
const LIST_JS_BUDGET = 148 * 1024

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

describe('the captcha widget', () => {
  it('is rendered only where the realm asks for one; its code is in the sign-in module, its proof of work in a worker', async () => {
    const demo = await (await call(DEMO, '/login')).text()
    expect(demo).not.toContain('captcha_token')
    const escola = await (await call(ESCOLA, '/login')).text()
    expect(escola).toContain('name="captcha_token"')
    expect(scriptsOf(escola)).toEqual(scriptsOf(demo))
    expect(Object.keys(inject('scriptSizes')).filter((src) => /^\/assets\/pow\.worker-[\w-]+\.js$/.test(src))).toHaveLength(1)
  })
})
