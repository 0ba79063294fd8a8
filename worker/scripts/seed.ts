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

/**
 * Seeding is idempotent (every insert is ON CONFLICT DO NOTHING), so a failed attempt is retried with a fresh proxy:
 * under a loaded machine, miniflare's synchronous proxy call (`db.prepare`) now and then fails its own message-id
 * assertion (`SynchronousFetcher.fetch`), which has nothing to do with the data.
 */
async function seedWithRetry(stateDir: string, attempts = 3): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await seedLocal(stateDir)
    } catch (error) {
      if (attempt >= attempts) throw error
      console.warn(`  seeding failed (${error instanceof Error ? error.message : String(error)}); retrying (${attempt + 1}/${attempts})`)
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const inserted = await seedWithRetry(process.argv[2] ?? '.wrangler/state')
  console.log(`  ${inserted === 0 ? 'demo data already present, nothing changed' : `demo data: ${inserted} rows inserted`}`)
}
