/**
 * `npm run deploy`: puts the product on Cloudflare. Needs `wrangler login` (or CLOUDFLARE_API_TOKEN) and
 * `partykit login`. Steps: create the D1 database and R2 bucket on first run (the database id is written into
 * wrangler.toml), apply D1 migrations remotely, share a fresh PARTY_SECRET with the Worker and PartyKit,
 * deploy PartyKit, build and deploy the Worker pointing at the PartyKit host. Demo data is never deployed.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'

const bin = (name: string) => `node_modules/.bin/${name}`
const sh = (cmd: string, args: string[], input?: string) => {
  console.log(`› ${cmd} ${args.join(' ')}`)
  const r = spawnSync(bin(cmd), args, { stdio: [input === undefined ? 'inherit' : 'pipe', 'inherit', 'inherit'], input })
  if (r.status !== 0) throw new Error(`${cmd} ${args[0]} failed`)
}

const PLACEHOLDER = '00000000-0000-0000-0000-000000000000'
const toml = readFileSync('wrangler.toml', 'utf8')
if (toml.includes(PLACEHOLDER)) {
  console.log('› Creating the D1 database realm-console')
  const out = execFileSync(bin('wrangler'), ['d1', 'create', 'realm-console'], { encoding: 'utf8' })
  const id = /database_id\s*=\s*"([0-9a-f-]{36})"/.exec(out)?.[1] ?? /"database_id":\s*"([0-9a-f-]{36})"/.exec(out)?.[1]
  if (!id) throw new Error(`Could not read the new database id from:\n${out}`)
  writeFileSync('wrangler.toml', toml.replace(PLACEHOLDER, id))
  spawnSync(bin('wrangler'), ['r2', 'bucket', 'create', 'realm-console-files'], { stdio: 'inherit' })
}

sh('wrangler', ['d1', 'migrations', 'apply', 'DB', '--remote'])

const partyHost = process.env.PARTYKIT_HOST
if (!partyHost) throw new Error('Set PARTYKIT_HOST to the PartyKit host, e.g. realm-console-party.<your-user>.partykit.dev')
const secret = process.env.PARTY_SECRET ?? randomBytes(32).toString('base64url')
sh('partykit', ['env', 'add', 'PARTY_SECRET'], secret)
sh('partykit', ['deploy'])
sh('wrangler', ['secret', 'put', 'PARTY_SECRET'], secret)
sh('remix', ['vite:build'])
sh('wrangler', ['deploy', '--var', `PARTYKIT_HOST:${partyHost}`])
console.log('Deployed. Create the first realm, its host and its root user with the console of an existing realm or with `wrangler d1 execute --remote`.')
