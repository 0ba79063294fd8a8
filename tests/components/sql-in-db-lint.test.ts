// @vitest-environment node
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

/**
 * SQL lives in worker/db/ only (issue 12): the lint fails D1's prepare/exec/batch anywhere else in the Worker. These
 * run the project's own ESLint config on small sources placed at the paths that matter.
 */
const eslint = new ESLint({ cwd: process.cwd() })

async function sqlErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message)
}

const handler = (call: string) => `export async function f(c: { env: { DB: D1Database } }, s: string) {\n  return ${call}\n}\n`

describe('the SQL-in-worker/db lint rule', () => {
  it('refuses prepare, batch and exec on D1 in a route handler and in worker/lib', async () => {
    for (const call of ["c.env.DB.prepare('SELECT 1 FROM user WHERE realm = ?')", 'c.env.DB.batch([])', "c.env.DB.exec('DELETE FROM user')"]) {
      expect(await sqlErrors('worker/api/mas/example.ts', handler(call))).toEqual([expect.stringContaining('worker/db/')])
      expect(await sqlErrors('worker/lib/example.ts', handler(call))).toHaveLength(1)
    }
  }, 60_000)

  it('accepts the same calls in worker/db/, and a regular expression’s exec anywhere', async () => {
    expect(await sqlErrors('worker/db/example.ts', handler("c.env.DB.prepare('SELECT 1')"))).toEqual([])
    expect(await sqlErrors('worker/db/example.ts', handler('c.env.DB.batch([])'))).toEqual([])
    expect(await sqlErrors('worker/api/mas/example.ts', handler('/^Bearer\\s+(\\S+)$/i.exec(s)'))).toEqual([])
  }, 60_000)
})
