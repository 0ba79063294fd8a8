/**
 * `npm run bench`: seeds the bench realm (tests/bench/seed.ts) into a fresh local state, starts the product as
 * `npm start` does and measures it over real HTTP. Prints figures, then the issue's speed goals beside them;
 * asserts nothing. Each *.bench.ts file exports `title` and `scenarios(ctx)`.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seedLocal } from '../../worker/scripts/seed'
import { startServer } from '../support/server'
import { printGoals } from './goals'
import type { BenchContext, Result, Scenario } from './harness'
import { runScenario, printTable } from './harness'
import { BENCH_ROWS, seedBenchState } from './seed'

// BENCH_ONLY=speed,ledger runs the files named so; BENCH_STATE keeps a seeded state directory between runs (seeding is skipped when the bench realm is there).
const state = process.env.BENCH_STATE ?? mkdtempSync(join(tmpdir(), 'console-bench-'))
try {
  let t0 = performance.now()
  const migrate = spawnSync('node_modules/.bin/wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', state], {
    env: { ...process.env, CI: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  if (migrate.status !== 0) throw new Error('wrangler d1 migrations apply failed')
  await seedLocal(state)
  console.log(`Migrations and demo data: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  t0 = performance.now()
  await seedBenchState(state)
  console.log(
    `Bench realm seeded (${Object.entries(BENCH_ROWS)
      .map(([k, n]) => `${n.toLocaleString('en')} ${k}`)
      .join(', ')}): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )
  // At `npm start`'s log level: at `log`, wrangler prints a line per request, sent to its process by the dev proxy
  // (a third of a core at 300 transfers a second, none of it the Worker's).
  const server = await startServer({ state, logLevel: 'warn' })
  const ctx: BenchContext = { base: (host: string) => `http://${host}:${server.port}`, serverPid: server.pid, partyPort: server.partyPort, state }
  const all: Result[] = []
  try {
    const only = process.env.BENCH_ONLY
    const files = readdirSync(new URL('.', import.meta.url))
      .filter((f) => f.endsWith('.bench.ts') && (!only || only.split(',').some((o) => f.includes(o))))
      // The bundle file's `wrangler deploy --dry-run` makes the running `wrangler dev` restart its Worker, and a POST
      // in flight then answers 503 "restarted mid-request": it runs after every file that talks to the server.
      .sort((a, b) => Number(a === 'bundle.bench.ts') - Number(b === 'bundle.bench.ts') || a.localeCompare(b))
    for (const file of files) {
      const mod = (await import(`./${file}`)) as { title: string; scenarios: (ctx: BenchContext) => Promise<Scenario[]> }
      console.log(`\n## ${mod.title} (${file})`)
      const results = []
      for (const scenario of await mod.scenarios(ctx)) results.push(await runScenario(scenario))
      printTable(results)
      all.push(...results)
    }
  } finally {
    await server.stop()
  }
  printGoals(all)
} finally {
  if (!process.env.BENCH_STATE) rmSync(state, { recursive: true, force: true })
}
