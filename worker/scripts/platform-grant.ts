/**
 * `npm run platform:grant -- <realm> <nick> [--remote]`: makes an existing user a platform operator. Creates the
 * `platform` role (every permission, platform-level ones included) in their realm when missing and gives it to
 * them. This is the only way to grant platform-level permissions to someone when nobody holds them yet (a fresh
 * production database): inside the product only a holder can grant them. Without `--remote` it changes the local
 * state of `npm start` (STATE_DIR, default .wrangler/state); with it, the deployed D1 database (needs wrangler login).
 */
import { spawnSync } from 'node:child_process'
import { findUserSql, grantSql, parseGrant } from '../lib/platform-grant'

const args = process.argv.slice(2)
const remote = args.includes('--remote')
const [realmArg, nickArg] = args.filter((a) => !a.startsWith('--'))
if (!realmArg || !nickArg) {
  console.error('Usage: npm run platform:grant -- <realm> <nick> [--remote]')
  process.exit(2)
}

let grant
try {
  grant = parseGrant(realmArg, nickArg)
} catch (err) {
  console.error(`Not a realm code and a nick: ${realmArg} ${nickArg} (${err instanceof Error ? err.message : String(err)})`)
  process.exit(2)
}

const where = remote ? ['--remote'] : ['--local', '--persist-to', process.env.STATE_DIR ?? '.wrangler/state']

/** Runs SQL through `wrangler d1 execute` and answers the rows of its last statement. */
function execute(sql: string): Record<string, unknown>[] {
  const r = spawnSync('node_modules/.bin/wrangler', ['d1', 'execute', 'DB', ...where, '--json', '--command', sql], {
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
  })
  if (r.status !== 0) {
    console.error(r.stderr || r.stdout)
    throw new Error('wrangler d1 execute failed')
  }
  const out = JSON.parse(r.stdout) as { results?: Record<string, unknown>[] }[]
  return out.at(-1)?.results ?? []
}

const found = execute(findUserSql(grant))
if (found.length !== 1) {
  console.error(`No user ${grant.nick} in realm ${grant.realm}${remote ? ' (remote)' : ''}: nothing changed.`)
  process.exit(1)
}
execute(grantSql(grant).join(';\n'))
const nick = String(found[0].nick)
const check = execute(`SELECT COUNT(*) AS n FROM user_role WHERE realm = '${grant.realm}' AND nick = '${nick.replace(/'/g, "''")}' AND role = 'platform'`)
if (Number(check[0]?.n) !== 1) throw new Error('The platform role was not given; see the output above.')
console.log(`${nick} (realm ${grant.realm}) now holds the platform role${remote ? ' in the deployed database' : ''}. Their next request uses it.`)
