/**
 * `npm run bench`: starts the product as `npm start` does and measures it over real HTTP. Prints figures;
 * asserts nothing. Each *.bench.ts file exports `scenarios(ctx)`.
 */
import { readdirSync } from 'node:fs'
import { startServer } from '../support/server'
import type { BenchContext, Scenario } from './harness'
import { runScenario, printTable } from './harness'

const server = await startServer()
const ctx: BenchContext = { base: (host: string) => `http://${host}:${server.port}` }
try {
  const files = readdirSync(new URL('.', import.meta.url))
    .filter((f) => f.endsWith('.bench.ts'))
    .sort()
  for (const file of files) {
    const mod = (await import(`./${file}`)) as { title: string; scenarios: (ctx: BenchContext) => Promise<Scenario[]> }
    console.log(`\n## ${mod.title} (${file})`)
    const results = []
    for (const scenario of await mod.scenarios(ctx)) results.push(await runScenario(scenario))
    printTable(results)
  }
} finally {
  await server.stop()
}
