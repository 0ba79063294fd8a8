/** Seeds the local D1 database with the demo data (idempotent). Usage: tsx worker/scripts/seed.ts [stateDir] */
import { getPlatformProxy } from 'wrangler'
import { hashPassword } from '../lib/password'
import { seedDemo } from '../seed/demo'

export async function seedLocal(stateDir: string): Promise<number> {
  const proxy = await getPlatformProxy<Env>({ configPath: 'wrangler.toml', persist: { path: `${stateDir}/v3` } })
  try {
    const { inserted } = await seedDemo(proxy.env.DB, (password) => hashPassword(password))
    return inserted
  } finally {
    await proxy.dispose()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const inserted = await seedLocal(process.argv[2] ?? '.wrangler/state')
  console.log(`  ${inserted === 0 ? 'demo data already present, nothing changed' : `demo data: ${inserted} rows inserted`}`)
}
