import { applyD1Migrations, env } from 'cloudflare:test'
import { beforeAll } from 'vitest'
import { seedDemo } from '../../worker/seed/demo'
import { failOnConsoleError } from '../support/console-errors'
import { forgetCraftedUsers } from './helpers'

failOnConsoleError()

/**
 * Test files share a workerd instance (`isolate: false` in vitest.config.ts: starting workerd and loading the Worker's
 * modules again for every file cost more than the tests themselves), so each file starts from a database of its own:
 * the first file of a worker finds it empty, every later one drops what the earlier left (tables, views, triggers,
 * the migrations log) and the uploads bucket, then migrations and the demo seed run again.
 */
const shared = globalThis as { __testDatabaseUsed?: boolean }

beforeAll(async () => {
  if (shared.__testDatabaseUsed) await resetStorage()
  shared.__testDatabaseUsed = true
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
  // The demo password's 600k-iteration hash is computed once per run by global-setup.ts and handed in as a binding.
  await seedDemo(env.DB, async () => env.TEST_DEMO_PASSWORD_HASH)
})

async function resetStorage(): Promise<void> {
  forgetCraftedUsers()
  const { results } = await env.DB.prepare(
    // Newest first: a table is dropped before the tables its foreign keys reference.
    "SELECT type, name, sql FROM sqlite_master WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY rowid DESC",
  ).all<{ type: string; name: string; sql: string | null }>()
  const virtual = results.filter((r) => r.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(r.sql ?? '')).map((r) => r.name)
  // A virtual table's shadow tables (FTS5's _data, _idx, …) go with it.
  const shadow = (name: string) => virtual.some((v) => name.startsWith(`${v}_`))
  const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`
  // Signing keys are cached by the Worker for its lifetime (worker/db/keys.ts), as in a deployed isolate: they stay,
  // so the database and that cache agree.
  const keys = results.some((r) => r.name === 'signing_key') ? await env.DB.prepare('SELECT * FROM signing_key').all() : { results: [] }
  await env.DB.batch([
    env.DB.prepare('PRAGMA defer_foreign_keys = ON'),
    ...results.filter((r) => r.type === 'trigger').map((r) => env.DB.prepare(`DROP TRIGGER ${quoted(r.name)}`)),
    ...results.filter((r) => r.type === 'view').map((r) => env.DB.prepare(`DROP VIEW ${quoted(r.name)}`)),
    ...virtual.map((name) => env.DB.prepare(`DROP TABLE ${quoted(name)}`)),
    ...results.filter((r) => r.type === 'table' && !virtual.includes(r.name) && !shadow(r.name)).map((r) => env.DB.prepare(`DROP TABLE ${quoted(r.name)}`)),
  ])
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
  if (keys.results.length) {
    const columns = Object.keys(keys.results[0])
    await env.DB.batch(
      keys.results.map((row) =>
        env.DB.prepare(`INSERT INTO signing_key (${columns.map(quoted).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).bind(
          ...columns.map((c) => (row as Record<string, unknown>)[c]),
        ),
      ),
    )
  }
  for (;;) {
    const listed = await env.FILES.list({ limit: 1000 })
    if (!listed.objects.length) break
    await env.FILES.delete(listed.objects.map((o) => o.key))
  }
}
