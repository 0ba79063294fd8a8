import { localFetch } from '../support/local-fetch'

export interface BenchContext {
  /** Origin of the running server for a host name, e.g. base('demo.localhost'). */
  base(host: string): string
  /** Process id of the server (`npm start`), whose workerd descendants serve the Worker. */
  serverPid: number
  /** Port of the PartyKit dev server (the live parties). */
  partyPort: number
  /** The server's state directory (local D1/R2), for a bench that seeds rows no API makes in bulk. */
  state: string
}

export interface Scenario {
  name: string
  /** Number of requests in flight at once. */
  concurrency: number
  /** Total requests. */
  requests: number
  /** One request; throws on an unexpected answer. */
  run(i: number): Promise<void>
  /**
   * Requests sent first and left out of every figure (JIT, caches and objects warm, as on a server that has been up):
   * `run(requests + k)` for k below this number, with the scenario's concurrency. None by default.
   */
  warmup?: number
  /** Optional step just before the timed run (e.g. reading the server's CPU time). */
  before?(): Promise<void>
  /** Optional steps around each request, outside its timing (scenarios run one at a time read the server's CPU). */
  beforeEach?(i: number): Promise<void>
  afterEach?(i: number, ms: number): Promise<void>
  /** Optional figure computed after the run (e.g. an invariant check), printed beside the timings. */
  after?(): Promise<string>
}

export interface Result {
  name: string
  concurrency: number
  requests: number
  failures: number
  seconds: number
  perSecond: number
  p50: number
  p95: number
  p99: number
  max: number
  note: string
}

/**
 * The p-th percentile by nearest rank: the smallest value with at least p% of the values at or below it (rank
 * ⌈p/100 × n⌉). An earlier version read the value one rank higher (⌊p/100 × n⌋ + 1), which for 100
 * requests made the p99 the slowest request of all; the slowest is printed as `max`.
 */
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0

export async function runScenario(s: Scenario): Promise<Result> {
  const latencies: number[] = []
  let failures = 0
  let next = 0
  let warm = 0
  await Promise.all(
    Array.from({ length: s.concurrency }, async () => {
      while (warm < (s.warmup ?? 0)) await s.run(s.requests + warm++)
    }),
  )
  await s.before?.()
  const started = performance.now()
  await Promise.all(
    Array.from({ length: s.concurrency }, async () => {
      while (next < s.requests) {
        const i = next++
        await s.beforeEach?.(i)
        const t0 = performance.now()
        try {
          // A request without an answer in 60 s counts as failed (and the run goes on).
          let timer: ReturnType<typeof setTimeout> | undefined
          await Promise.race([
            s.run(i),
            new Promise<never>((_, reject) => {
              timer = setTimeout(() => reject(new Error('no answer in 60 s')), 60_000)
            }),
          ]).finally(() => clearTimeout(timer))
        } catch {
          failures++
        }
        const ms = performance.now() - t0
        latencies.push(ms)
        await s.afterEach?.(i, ms)
      }
    }),
  )
  const seconds = (performance.now() - started) / 1000
  latencies.sort((a, b) => a - b)
  return {
    name: s.name,
    concurrency: s.concurrency,
    requests: s.requests,
    failures,
    seconds,
    perSecond: s.requests / seconds,
    p50: pct(latencies, 50),
    p95: pct(latencies, 95),
    p99: pct(latencies, 99),
    max: latencies[latencies.length - 1] ?? 0,
    note: s.after ? await s.after() : '',
  }
}

export function printTable(results: Result[]) {
  const rows = results.map((r) => [
    r.name,
    String(r.concurrency),
    String(r.requests),
    String(r.failures),
    r.perSecond.toFixed(1),
    r.p50.toFixed(1),
    r.p95.toFixed(1),
    r.p99.toFixed(1),
    r.max.toFixed(1),
    r.note,
  ])
  const head = ['scenario', 'conc.', 'requests', 'failed', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'note']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  console.log(line(head))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const r of rows) console.log(line(r))
}

/** An API token of `nick` of the bench realm (POST /api/device), for scenarios that call the API. */
export async function benchToken(base: string, nick = 'root'): Promise<string> {
  const res = await localFetch(`${base}/api/device`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ realm: 'bench', nick, password: 'demo1234' }),
  })
  return ((await res.json()) as { auth_token: string }).auth_token
}
