import type { Result } from './harness'

/** The speed goals, each read from the results of the scenarios named (absent ones print "not run"). */
const GOALS: { what: string; goal: string; show: (find: (prefix: string) => Result | undefined) => string }[] = []

/** "12.3 ms (Worker 10.1 + dev proxy 2.2)" from a CPU note (cpu.ts). */
const cpuOf = (r: Result | undefined) => {
  const m = /CPU ([\d.]+) ms\/req( \([^)]*\))?/.exec(r?.note ?? '')
  return m ? `${m[1]} ms${m[2] ?? ''}` : '?'
}
const ms = (n: number | undefined) => (n === undefined ? '?' : n.toFixed(1))

for (const [label, path] of [
  ['home', '/ (home)'],
  ['/user list', '/user (list)'],
] as const) {
  GOALS.push({
    what: `SSR ${label}: Worker CPU per page; p50/p99 one at a time`,
    goal: 'CPU ≤ 8 ms; p50 ≤ 20, p99 ≤ 50 ms',
    show: (find) => {
      const one = find(`SSR ${path}, one at a time`)
      return one ? `CPU ${cpuOf(one)}; p50 ${ms(one.p50)}, p99 ${ms(one.p99)} ms (max ${ms(one.max)})` : 'not run'
    },
  })
  GOALS.push({
    what: `SSR ${label}: p50 at 10 concurrent`,
    goal: '(figure; was 287/398 ms)',
    show: (find) => {
      const ten = find(`SSR ${path}, 10 concurrent`)
      return ten ? `p50 ${ms(ten.p50)} ms (CPU ${cpuOf(ten)} per page)` : 'not run'
    },
  })
}
for (const name of ['plain', 'text search', 'rare text search', 'sort by name', 'last page']) {
  GOALS.push({
    what: `API /mas/user list at 100k rows, limit 25: ${name}`,
    goal: 'p99 ≤ 20 ms',
    show: (find) => {
      const r = find(`API list ${name}:`)
      return r ? `p99 ${ms(r.p99)} ms (p50 ${ms(r.p50)}, max ${ms(r.max)})` : 'not run'
    },
  })
}
GOALS.push({
  what: 'API ledger movements list (100k movements)',
  goal: 'p50 (was 525 ms)',
  show: (find) => {
    const r = find('API ledger movements list')
    return r ? `p50 ${ms(r.p50)} ms (p99 ${ms(r.p99)})` : 'not run'
  },
})
for (const tab of ['general', 'activity']) {
  GOALS.push({
    what: `API analytics ${tab} over a year of a 100k-student realm: p50/p99 per query`,
    goal: 'p99 ≤ 100 ms each (rollups + today from indexes)',
    show: (find) => {
      const names = ['31 days by day', '3 months by month', 'a year by year', '31 days, one room', '3 months, one room category (20 rooms)']
      const found = names.map((n) => [n, find(`API analytics ${tab}, ${n}`)] as const).filter(([, r]) => r)
      return found.length ? found.map(([n, r]) => `${n}: ${ms(r!.p50)}/${ms(r!.p99)}`).join('; ') + ' ms' : 'not run'
    },
  })
}
GOALS.push({
  what: 'Ledger transfers from one hot wallet (16 in flight)',
  goal: '≥ 300 per second, invariants intact',
  show: (find) => {
    const r = find('POST transfer, one payer wallet (1 → 1)')
    return r ? `${r.perSecond.toFixed(0)}/s, ${r.failures} failed; ${r.note}` : 'not run'
  },
})

for (const [label, name, goal] of [
  ['sign-in page', 'JS sign-in page (/login)', '≤ 100 KB gzip'],
  ['list page', 'JS list page (/user)', '≤ 150 KB gzip'],
] as const) {
  GOALS.push({
    what: `JS on the ${label} (first visit)`,
    goal,
    show: (find) => /^[\d.]+ KB in \d+ scripts/.exec(find(name)?.note ?? '')?.[0] ?? 'not run',
  })
}

GOALS.push({
  what: 'Channel party: 1,000 participants, 10 messages a second (issue 13)',
  goal: 'delivery p99 ≤ 250 ms, 0 lost',
  show: (find) => find('Channel party crowd')?.note || 'not run',
})

GOALS.push({
  what: '500 students deliver the same exam within one minute (issue 17)',
  goal: 'all in ≤ 60 s (≥ 8.3 deliveries/s), p99 printed, 0 lost',
  show: (find) => {
    const burst = find('Exam delivery (burst)')
    const paced = find('Exam delivery (paced)')
    return (
      [
        burst && `burst: ${burst.perSecond.toFixed(1)}/s, all in ${burst.seconds.toFixed(1)} s, p99 ${ms(burst.p99)} ms; ${burst.note}`,
        paced && `over the minute: p50 ${ms(paced.p50)}, p99 ${ms(paced.p99)} ms; ${paced.note}`,
      ]
        .filter(Boolean)
        .join(' — ') || 'not run'
    )
  },
})

export function printGoals(results: Result[]) {
  const find = (prefix: string) => results.find((r) => r.name.startsWith(prefix))
  const rows = GOALS.map((g) => [g.what, g.goal, g.show(find)])
  const head = ['what', 'goal', 'measured']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  console.log('\n## Issue 12 speed goals')
  console.log(
    'Worker CPU: utime+stime of the workerd processes wrangler runs for the Worker (/proc/<pid>/stat, 10 ms ticks), read before and after the run and divided by its requests; it includes the local D1 (SQLite inside workerd) and wrangler’s proxy, not the bench client.',
  )
  console.log(line(head))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const r of rows) console.log(line(r))
}
