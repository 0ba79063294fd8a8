import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { chromium } from 'playwright-core'
import { localFetch as fetch } from '../support/local-fetch'
import { workerBundle } from '../support/worker-bundle'
import type { BenchContext, Scenario } from './harness'

export const title = 'Weight: JS per page (first visit, gzip) and the Worker bundle'

const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/**
 * The editor islands of issue 18, told apart by a text only their library's code carries: KaTeX (the formula
 * typesetter, with the rich text) and Konva (the slide editor's canvas). Each page's note says which of them it loaded.
 */
const ISLANDS = { KaTeX: 'KaTeX parse error', Konva: 'Konva warning' } as const
type Island = keyof typeof ISLANDS
const islandsOf = (body: Buffer) => (Object.keys(ISLANDS) as Island[]).filter((name) => body.includes(ISLANDS[name]))
const islandNote = (loaded: Partial<Record<Island, number>>) =>
  (Object.keys(ISLANDS) as Island[]).map((name) => `${name} ${loaded[name] === undefined ? 'absent' : KB(loaded[name])}`).join(', ')

/** What a first visit of `url` downloads: every script (and the JSON it fetches), gzip sizes, until it is hydrated. */
async function firstVisit(url: string, cookie?: { name: string; value: string }) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  })
  try {
    const context = await browser.newContext({ locale: 'pt-BR' })
    if (cookie) await context.addCookies([{ ...cookie, url }])
    const page = await context.newPage()
    const bodies: Promise<{ url: string; type: string; gzip: number; islands: Island[] }>[] = []
    page.on('response', (res) => {
      const type = res.request().resourceType()
      // The language's texts are JSON files, preloaded (type "other" or "fetch") or fetched after hydration.
      const texts = /\/assets\/i18n-[^/]+\.json$/.test(new URL(res.url()).pathname)
      if (type !== 'script' && type !== 'stylesheet' && !texts) return
      bodies.push(
        res.body().then((b) => ({ url: res.url(), type: texts ? 'texts' : type, gzip: gzipSync(b).length, islands: type === 'script' ? islandsOf(b) : [] })),
      )
    })
    await page.goto(url)
    await page.waitForSelector('html[data-hydrated="true"]')
    await page.waitForLoadState('networkidle')
    const all = [...new Map((await Promise.all(bodies)).map((b) => [b.url, b])).values()]
    const scripts = all.filter((b) => b.type === 'script')
    const css = all.filter((b) => b.type === 'stylesheet')
    const json = all.filter((b) => b.type === 'texts')
    const islands: Partial<Record<Island, number>> = {}
    for (const script of scripts) for (const name of script.islands) islands[name] = (islands[name] ?? 0) + script.gzip
    return {
      js: scripts.reduce((n, b) => n + b.gzip, 0),
      files: scripts.length,
      css: css.reduce((n, b) => n + b.gzip, 0),
      // The language's texts, fetched as JSON (app/i18n/vite-catalogues.ts): not script, but part of the first visit.
      texts: json.reduce((n, b) => n + b.gzip, 0),
      names: scripts.map((s) => new URL(s.url).pathname.replace(/^\/assets\//, '')),
      islands,
    }
  } finally {
    await browser.close()
  }
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const demo = ctx.base('demo.localhost')
  const form = new FormData()
  form.set('nick', 'root')
  form.set('password', 'demo1234')
  const login = await fetch(`${demo}/login`, { method: 'POST', body: form, redirect: 'manual', headers: { origin: demo } })
  const [name, value] = /dash_session=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')![0].split('=')
  const session = { name, value }

  const page = (label: string, path: string, goal: number | null, signedIn: boolean): Scenario => {
    let note = ''
    return {
      name: `JS ${label} (${path})`,
      concurrency: 1,
      requests: 1,
      async run() {
        const r = await firstVisit(`${demo}${path}`, signedIn ? session : undefined)
        note = `${KB(r.js)} in ${r.files} scripts${goal ? ` (goal ≤ ${goal} KB)` : ''}; texts (JSON) ${KB(r.texts)}; CSS ${KB(r.css)}; ${islandNote(r.islands)}`
        if (process.env.BENCH_VERBOSE) console.log(label, r.names.join(' '))
      },
      after: async () => note,
    }
  }

  let bundleNote = ''
  const bundle: Scenario = {
    name: 'Worker bundle (wrangler --dry-run --minify)',
    concurrency: 1,
    requests: 1,
    async run() {
      const dir = mkdtempSync(join(tmpdir(), 'bundle-bench-'))
      try {
        execFileSync('npx', ['wrangler', 'deploy', '--dry-run', '--minify', '--outdir', dir], { stdio: 'ignore' })
        const minified = readFileSync(join(dir, 'index.js'))
        const report = await workerBundle()
        const twice = report.libraries.filter((l) => l.copies > 1).map((l) => `${l.name} ×${l.copies}`)
        bundleNote =
          `${(minified.length / 1024 / 1024).toFixed(2)} MB minified (${KB(gzipSync(minified).length)} gzip); ` +
          `bundled twice: ${twice.length ? twice.join(', ') : 'none'} (goal: none); ` +
          `editors in the server build: ${report.editorsInServerBuild ? 'yes' : 'no'} (goal: no)`
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
    after: async () => bundleNote,
  }

  let chunksNote = ''
  const chunks: Scenario = {
    name: 'Editor islands in the client build (KaTeX, Konva: chunks holding them, gzip)',
    concurrency: 1,
    requests: 1,
    async run() {
      const dir = join(process.cwd(), 'build/client/assets')
      const found: Record<Island, string[]> = { KaTeX: [], Konva: [] }
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
        const body = readFileSync(join(dir, file))
        for (const name of islandsOf(body)) found[name].push(`${file} ${KB(gzipSync(body).length)}`)
      }
      chunksNote = (Object.keys(found) as Island[])
        .map((name) => `${name}: ${found[name].length ? found[name].join(', ') : 'in no chunk (no screen mounts it)'}`)
        .join('; ')
    },
    after: async () => chunksNote,
  }

  return [
    chunks,
    page('sign-in page, no session', '/', 100, false),
    page('sign-in page', '/login', 100, false),
    page('overview', '/', null, true),
    page('list page', '/user', 150, true),
    page('model editor', '/tms/model/create', null, true),
    // The lesson editor (issue 18): the Konva and KaTeX islands it mounts, and the narration and persona video panel.
    page('lesson editor', '/lesson/model/edit/new', null, true),
    bundle,
  ]
}
