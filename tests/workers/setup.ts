import { applyD1Migrations, env } from 'cloudflare:test'
import { beforeAll } from 'vitest'
import { hashPassword } from '../../worker/lib/password'
import { seedDemo } from '../../worker/seed/demo'

// Hashing the demo password is slow by design; one hash serves the whole test run's demo accounts.
let demoHash: Promise<string> | undefined

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
  demoHash ??= hashPassword('demo1234')
  const hash = await demoHash
  await seedDemo(env.DB, async () => hash)
})
