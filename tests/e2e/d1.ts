import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { inject } from 'vitest'

/**
 * One SQL statement on the running server's local D1 (`wrangler d1 execute --local` on its state directory), for a
 * browser test that must set what no API of this branch sets (issue 15: a session's `published` status).
 */
export async function d1Execute(sql: string): Promise<void> {
  await promisify(execFile)('npx', ['wrangler', 'd1', 'execute', 'DB', '--local', '--persist-to', inject('stateDir'), '--command', sql], {
    env: { ...process.env, CI: '1' },
  })
}
