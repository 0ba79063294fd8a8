/**
 * `npm start`: applies the D1 migrations locally, seeds the demo data (idempotent), builds the console, then serves
 * the Worker (console + realm API) on PORT (8787) and PartyKit on PARTY_PORT (1999). Ctrl-C stops everything.
 * Everything is local: D1, R2 and Durable Objects run embedded in workerd; state lives in STATE_DIR (.wrangler/state).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mintPortalToken } from '../lib/state-portal'
import { DEMO_EMPLOYEES, DEMO_PORTAL_SECRET } from '../seed/demo'
import { seedLocal } from './seed'

const PORT = process.env.PORT ?? '8787'
const PARTY_PORT = process.env.PARTY_PORT ?? '1999'
const STATE_DIR = process.env.STATE_DIR ?? '.wrangler/state'
// Tickets live for a minute, so a secret made fresh for each run is enough locally.
const PARTY_SECRET = process.env.PARTY_SECRET ?? randomBytes(32).toString('base64url')
const bin = (name: string) => `node_modules/.bin/${name}`
// Google sign-in's issuer and keys default to Google's (wrangler.toml); tests point them at a local OpenID issuer.
const googleVars = (['GOOGLE_ISSUER', 'GOOGLE_JWKS_URL'] as const).flatMap((name) => (process.env[name] ? ['--var', `${name}:${process.env[name]}`] : []))

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(cmd), args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`))))
  })
}

const children: ChildProcess[] = []
function serve(cmd: string, args: string[]): ChildProcess {
  // Same process group as this script: Ctrl-C (or a signal to the group) reaches wrangler, PartyKit and their workerd.
  const child = spawn(bin(cmd), args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: '1' } })
  const label = cmd === 'wrangler' ? 'worker' : 'party '
  const relay = (stream: NodeJS.ReadableStream, out: NodeJS.WriteStream) =>
    stream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) out.write(`[${label}] ${line}\n`)
    })
  relay(child.stdout!, process.stdout)
  relay(child.stderr!, process.stderr)
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${label}] stopped (${signal ?? code}); shutting down.`)
      stop(1)
    }
  })
  children.push(child)
  return child
}

let stopping = false
function signalChildren(signal: NodeJS.Signals) {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal)
}

/**
 * Stops wrangler and PartyKit: SIGINT (their Ctrl-C shutdown), then SIGKILL after a grace period for any still
 * running — wrangler dev ignores SIGTERM, and left running they pile up on the machine.
 */
function stop(code = 0) {
  if (stopping) return
  stopping = true
  signalChildren('SIGINT')
  setTimeout(() => {
    signalChildren('SIGKILL')
    process.exit(code)
  }, 2000)
}
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

async function waitFor(url: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    try {
      const res = await fetch(url)
      if (res.status < 500) return
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`)
}

async function main() {
  console.log('› Applying D1 migrations (local)…')
  await run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE_DIR], { CI: '1' })
  console.log('› Seeding demo data…')
  const inserted = await seedLocal(STATE_DIR)
  console.log(`  ${inserted === 0 ? 'already seeded, nothing changed' : `${inserted} rows inserted`}`)
  if (process.env.START_SKIP_BUILD !== '1') {
    console.log('› Building the console…')
    await run('remix', ['vite:build'])
  }
  console.log('› Starting the Worker and PartyKit…')
  serve('wrangler', [
    'dev', '--port', PORT, '--persist-to', STATE_DIR, '--show-interactive-dev-session=false', '--log-level', process.env.LOG_LEVEL ?? 'warn',
    '--var', `PARTYKIT_HOST:localhost:${PARTY_PORT}`, '--var', `PARTY_SECRET:${PARTY_SECRET}`, ...googleVars,
  ])
  serve('partykit', ['dev', '--port', PARTY_PORT, '--persist', `${STATE_DIR}/partykit`, '--no-hotkeys', '--var', `PARTY_SECRET=${PARTY_SECRET}`])
  await Promise.all([waitFor(`http://localhost:${PORT}/api/version`), waitFor(`http://localhost:${PARTY_PORT}/`)])
  // A ready-to-click token-login link, as the state portal would send it (valid 24 hours, single use).
  const employee = DEMO_EMPLOYEES[0]
  const portalToken = await mintPortalToken(DEMO_PORTAL_SECRET, 'escola', employee.id, 24 * 60 * 60)
  const tokenLink = `http://escola.localhost:${PORT}/?token=${portalToken}&provider=employee_token&realm=escola`
  console.log(`
  Console and realm API ready.

    Multi-realm (realm chooser)  http://localhost:${PORT}/
    Realm demo                   http://demo.localhost:${PORT}/
    Realm escola                 http://escola.localhost:${PORT}/
    Realm API                    http://localhost:${PORT}/api/version
    PartyKit                     ws://localhost:${PARTY_PORT}/parties/presence/<realm>

  Demo accounts (password demo1234, local demo data only):
    demo    root (every permission) · manager · teacher · student (no console access)
    escola  root (TV-provider tab: click the logo 10 times)
    escola employees: ${DEMO_EMPLOYEES.map((e) => `${e.doc_type.toUpperCase()} ${e.doc_number}${e.uf === '-' ? '' : ` / ${e.uf}`}`).join(' · ')}
    Development outbox (recovery e-mails of demo): http://demo.localhost:${PORT}/authentication/outbox

  Token login for ${employee.nick} (single use, 24 h):
    ${tokenLink}

  Press Ctrl-C to stop.
`)
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  stop(1)
})
