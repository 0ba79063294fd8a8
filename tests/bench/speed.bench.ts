import { localFetch as fetch } from '../support/local-fetch'
import { RARE_WORD } from './seed'
import { benchToken, type BenchContext, type Scenario } from './harness'
import { withCpu } from './cpu'

export const title = 'Speed goals (issue 12): SSR pages and API lists in the bench realm (100,000 rows per table)'

async function expectOk(res: Response) {
  if (res.status !== 200) throw new Error(`HTTP ${res.status} ${res.url}`)
  await res.arrayBuffer()
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const bench = ctx.base('bench.localhost')
  const token = await benchToken(bench)
  const form = new FormData()
  form.set('nick', 'root')
  form.set('password', 'demo1234')
  const login = await fetch(`${bench}/login`, { method: 'POST', body: form, redirect: 'manual', headers: { origin: bench } })
  const cookie = /dash_session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')![0]
  const page = (path: string) => async () => expectOk(await fetch(`${bench}${path}`, { headers: { cookie } }))
  // What a page weighs: HTML bytes and icons (sprite references; inline path data would show as `<path`).
  const weight = (path: string) => async () => {
    const html = await (await fetch(`${bench}${path}`, { headers: { cookie } })).text()
    const count = (re: RegExp) => html.match(re)?.length ?? 0
    return `HTML ${(new TextEncoder().encode(html).length / 1024).toFixed(1)} KB, ${count(/<svg/g)} icons, ${count(/<path/g)} inline <path>`
  }
  const api = (path: string) => async () => expectOk(await fetch(`${bench}/api${path}`, { headers: { 'x-api-key': token } }))
  // Warm-up: the first requests compile the Worker and fill SQLite's page cache.
  for (const path of ['/', '/user']) await page(path)()
  const lists: [string, string][] = [
    ['plain', '/mas/user?limit=25'],
    ['text search', '/mas/user?limit=25&like=Silva'],
    ['rare text search', `/mas/user?limit=25&like=${RARE_WORD}`],
    ['sort by name', '/mas/user?limit=25&order=name'],
    // The console's last-page link: the order reversed, no OFFSET (the cursor answer's `prev` then pages back).
    ['last page', '/mas/user?limit=25&last=1'],
    ['offset 99975 (position paging, API clients)', '/mas/user?limit=25&offset=99975'],
    ['bank plain', '/tms/question_bank?limit=25'],
    ['bank text search', '/tms/question_bank?limit=25&like=Souza'],
    ['models text search', '/tms/model?limit=25&like=Costa'],
  ]
  for (const [, path] of lists) await api(path)()
  // Samples of the one-at-a-time scenarios whose p99 the goals judge. The p99 of 100 samples by nearest rank is the
  // second slowest: two requests that waited for a core (the slowest 5% of a list call wait 8–12 ms on a quiet machine)
  // decided it. Of 500 it is the sixth slowest, and the printed `max` still shows the slowest of all.
  const SAMPLES = 500
  // Requests each scenario sends before its figures start (a server that has been up has its code compiled).
  const WARMUP = 20
  return [
    withCpu({ name: 'SSR / (home), one at a time', concurrency: 1, requests: SAMPLES, warmup: WARMUP, run: page('/'), after: weight('/') }, ctx),
    withCpu({ name: 'SSR /user (list), one at a time', concurrency: 1, requests: SAMPLES, warmup: WARMUP, run: page('/user'), after: weight('/user') }, ctx),
    withCpu({ name: 'SSR / (home), 10 concurrent', concurrency: 10, requests: 100, warmup: WARMUP, run: page('/') }, ctx),
    withCpu({ name: 'SSR /user (list), 10 concurrent', concurrency: 10, requests: 100, warmup: WARMUP, run: page('/user') }, ctx),
    ...lists.map(([name, path]) => withCpu({ name: `API list ${name}: ${path}`, concurrency: 1, requests: SAMPLES, warmup: WARMUP, run: api(path) }, ctx)),
    withCpu({ name: 'API ledger movements list', concurrency: 1, requests: 50, warmup: WARMUP, run: api('/ledger/transaction/transfer?limit=25') }, ctx),
  ]
}
