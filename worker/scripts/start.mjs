/**
 * `npm start`: applies the D1 migrations locally, seeds the demo data (idempotent), builds the console, then serves
 * the Worker (console + realm API) on PORT (8787) and PartyKit on PARTY_PORT (1999). Ctrl-C stops everything.
 * Everything is local: D1, R2 and Durable Objects run embedded in workerd; state lives in STATE_DIR (.wrangler/state).
 */
// Plain Node (no TypeScript loader in between) so Ctrl-C reaches this process and it stops its children.
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'

const PORT = process.env.PORT ?? '8787'
const PARTY_PORT = process.env.PARTY_PORT ?? '1999'
const STATE_DIR = process.env.STATE_DIR ?? '.wrangler/state'
// Tickets live for a minute, so a secret made fresh for each run is enough locally.
const PARTY_SECRET = process.env.PARTY_SECRET ?? randomBytes(32).toString('base64url')
// Signs students' start receipts (issue 17); kept across restarts only when given.
const ANSWER_RECEIPT_SECRET = process.env.ANSWER_RECEIPT_SECRET ?? randomBytes(32).toString('base64url')
const bin = (name) => `node_modules/.bin/${name}`
// Google sign-in's issuer and keys default to Google's (wrangler.toml); tests point them at a local OpenID issuer.
const googleVars = ['GOOGLE_ISSUER', 'GOOGLE_JWKS_URL'].flatMap((name) => (process.env[name] ? ['--var', `${name}:${process.env[name]}`] : []))
// The speech and animation providers' addresses default to the real ones (wrangler.toml); the browser tests point them
// at the local server speaking their protocols (tests/support/ai-providers.ts). A realm still needs its keys to use them.
const providerVars = ['DID_API_URL', 'ELEVENLABS_API_URL', 'GOOGLE_TTS_API_URL', 'MINIMAX_API_URL'].flatMap((name) =>
  process.env[name] ? ['--var', `${name}:${process.env[name]}`] : [],
)

/** Runs a command to completion. */
function run(cmd, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(cmd), args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } })
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`))))
  })
}

const children = []
/** Starts a long-running server in its own process group, relaying its output with a label. */
function serve(cmd, args) {
  // The console is a production build (remix vite:build), so the Worker runs React's production server renderer, as a
  // deploy does: otherwise wrangler dev bundles React's development build (prop checks, warnings: about a tenth of a
  // page's CPU in a profile). NODE_ENV=development in the shell keeps the development build for debugging.
  const env = { ...process.env, CI: '1', ...(cmd === 'wrangler' ? { NODE_ENV: process.env.NODE_ENV ?? 'production' } : {}) }
  const child = spawn(bin(cmd), args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, env })
  const label = cmd === 'wrangler' ? 'worker' : 'party '
  const relay = (stream, out) =>
    stream.on('data', (chunk) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) out.write(`[${label}] ${line}\n`)
    })
  relay(child.stdout, process.stdout)
  relay(child.stderr, process.stderr)
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
const signalAll = (signal) => {
  for (const child of children) {
    try {
      if (child.pid) process.kill(-child.pid, signal)
    } catch {
      // already gone
    }
  }
}
/**
 * Stops both servers (their whole process groups): SIGINT, their own Ctrl-C shutdown (wrangler dev ignores SIGTERM),
 * then SIGKILL for anything still running after 3 s, so nothing piles up on the machine.
 */
function stop(code = 0) {
  if (stopping) return
  stopping = true
  signalAll('SIGINT')
  const alive = () => children.some((c) => c.exitCode === null && c.signalCode === null)
  const started = Date.now()
  const wait = setInterval(() => {
    if (!alive() || Date.now() - started > 3000) {
      clearInterval(wait)
      signalAll('SIGKILL')
      process.exit(code)
    }
  }, 100)
}
process.on('exit', () => signalAll('SIGKILL'))
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))

/** Resolves once the URL answers (any status under 500). */
async function waitFor(url, timeoutMs = 120_000) {
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

/** A port nobody listens on now (the OS picks it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(String(port)))
    })
  })
}

async function main() {
  console.log('› Applying D1 migrations (local)…')
  await run('wrangler', ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', STATE_DIR], { CI: '1' })
  console.log('› Seeding demo data…')
  await run('tsx', ['worker/scripts/seed.ts', STATE_DIR])
  if (process.env.START_SKIP_BUILD !== '1') {
    console.log('› Building the console…')
    await run('remix', ['vite:build'])
  }
  console.log('› Starting the Worker and PartyKit…')
  serve('wrangler', [
    'dev',
    '--port',
    PORT,
    '--persist-to',
    STATE_DIR,
    '--show-interactive-dev-session=false',
    // wrangler's devtools port defaults to 9229 for every instance: two products started side by side (tests, a second
    // checkout) collided on it ("Address already in use"), so each start takes a free one unless INSPECTOR_PORT says.
    '--inspector-port',
    process.env.INSPECTOR_PORT ?? (await freePort()),
    '--log-level',
    process.env.LOG_LEVEL ?? 'warn',
    '--var',
    `PARTYKIT_HOST:localhost:${PARTY_PORT}`,
    '--var',
    `PARTY_SECRET:${PARTY_SECRET}`,
    '--var',
    `ANSWER_RECEIPT_SECRET:${ANSWER_RECEIPT_SECRET}`,
    // Development mode (the local e-mail outbox, for signed-in staff) exists only here, never in wrangler.toml or a deploy.
    '--var',
    'DEV_MODE:1',
    // A deploy of another build is simulated in tests by starting with another version.
    ...(process.env.DASH_VERSION ? ['--var', `DASH_VERSION:${process.env.DASH_VERSION}`] : []),
    ...googleVars,
    ...providerVars,
  ])
  // The channel party reads channels and writes chat history and session metrics through the realm API (its service
  // ticket is signed with the same PARTY_SECRET; README "Live channel decisions").
  serve('partykit', [
    'dev',
    '--port',
    PARTY_PORT,
    '--persist',
    `${STATE_DIR}/partykit`,
    '--no-hotkeys',
    '--var',
    `PARTY_SECRET=${PARTY_SECRET}`,
    '--var',
    `REALM_API_URL=http://localhost:${PORT}`,
    // How long a live session outlives its last participant (15 s unless set; the browser tests pass a short one).
    ...(process.env.LIVE_END_GRACE_MS ? ['--var', `LIVE_END_GRACE_MS=${process.env.LIVE_END_GRACE_MS}`] : []),
    // The SFU large conferences move to (issue 20; none unless set: rooms stay peer to peer up to the mesh size).
    ...['CALLS_APP_ID', 'CALLS_APP_SECRET', 'CALLS_API_URL'].flatMap((name) => (process.env[name] ? ['--var', `${name}=${process.env[name]}`] : [])),
  ])
  await Promise.all([waitFor(`http://localhost:${PORT}/api/version`), waitFor(`http://localhost:${PARTY_PORT}/`)])
  console.log(`
  Console and realm API ready.

    Multi-realm (realm chooser)  http://localhost:${PORT}/
    Realm demo                   http://demo.localhost:${PORT}/
    Realm escola                 http://escola.localhost:${PORT}/
    Realm API                    http://localhost:${PORT}/api/version
    PartyKit                     ws://localhost:${PARTY_PORT}/parties/presence/<realm>, /parties/channel/<channel id>

`)
  // Demo accounts, employees and a fresh token-login link (TypeScript: run through tsx).
  await run('tsx', ['worker/scripts/demo-banner.ts', PORT])
  console.log('  Press Ctrl-C to stop.\n')
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err)
  stop(1)
})
