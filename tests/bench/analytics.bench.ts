import { localFetch as fetch } from '../support/local-fetch'
import { benchToken, type BenchContext, type Scenario } from './harness'
import { withCpu } from './cpu'

export const title = 'Analytics (issue 19): general and activity tabs over a year of a 100,000-student realm (rollups + today from base tables)'

/** Days before today in São Paulo (the bench realm's calendar), ISO. */
function dayBefore(n: number): string {
  const d = new Date(Date.now() - 3 * 3600_000)
  d.setUTCDate(d.getUTCDate() - n)
  return d.toISOString().slice(0, 10)
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const bench = ctx.base('bench.localhost')
  const token = await benchToken(bench)
  const today = dayBefore(0)
  const ranges: [string, string][] = [
    ['31 days by day', `period=day&start_at=${dayBefore(30)}&end_at=${today}`],
    ['3 months by month', `period=month&start_at=${dayBefore(62).slice(0, 8)}01&end_at=${today}`],
    ['a year by year', `period=year&start_at=${dayBefore(364)}&end_at=${today}`],
    ['31 days, one room', `period=day&start_at=${dayBefore(30)}&end_at=${today}&room=bench-room-007`],
    ['3 months, one room category (20 rooms)', `period=month&start_at=${dayBefore(62).slice(0, 8)}01&end_at=${today}&category=bench-cat-03`],
  ]
  const get = (path: string) => async () => {
    const res = await fetch(`${bench}/api/analytics/${path}`, { headers: { 'x-api-key': token } })
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`)
    await res.arrayBuffer()
  }
  // Warm-up: compiles the Worker and fills SQLite's page cache.
  for (const tab of ['general', 'task']) for (const [, q] of ranges) await get(`${tab}?${q}`)()
  return ['general', 'task'].flatMap((tab) =>
    ranges.map(([name, q]) =>
      withCpu({ name: `API analytics ${tab === 'task' ? 'activity' : tab}, ${name}`, concurrency: 1, requests: 50, run: get(`${tab}?${q}`) }, ctx),
    ),
  )
}
