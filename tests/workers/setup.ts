import { applyD1Migrations, env } from 'cloudflare:test'
import { beforeAll } from 'vitest'
import { seedDemo } from '../../worker/seed/demo'
import { failOnConsoleError } from '../support/console-errors'

failOnConsoleError()

beforeAll(async () => {
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
  // The demo password's 600k-iteration hash is computed once per run by global-setup.ts and handed in as a binding.
  await seedDemo(env.DB, async () => env.TEST_DEMO_PASSWORD_HASH)
})
