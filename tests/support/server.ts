import { spawn } from 'node:child_process'
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number }
      srv.close(() => resolve(port))
    })
    srv.on('error', reject)
  })
}

export interface RunningServer {
  port: number
  partyPort: number
  /** Process id of `npm start` (worker/scripts/start.mjs), the root of the server's processes. */
  pid: number
  stop(): Promise<void>
}

/**
 * Starts the product exactly as `npm start` does (worker/scripts/start.mjs) on free ports with a fresh state
 * directory. The console must already be built (`npm test` and `npm run bench` build first).
 */
export interface StartOptions {
  port?: number
  partyPort?: number
  /** State directory to reuse (kept on stop); a fresh temporary one otherwise (removed on stop). */
  state?: string
  env?: Record<string, string>
  timeoutMs?: number
  /**
   * wrangler's log level: `log` by default, which the reload notice (below) needs; `warn` is `npm start`'s, which does
   * not print a line per request (the bench: that line is a request from the dev proxy to wrangler's process).
   */
  logLevel?: 'log' | 'warn'
}

/** wrangler's lines (at log level `log`) that tell the Worker was reloaded, and why when it says. */
const RELOAD = /Reloading local server|changed\.\.\.|was (added|removed)|config file changed/

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const port = opts.port ?? (await freePort())
  const partyPort = opts.partyPort ?? (await freePort())
  const state = opts.state ?? mkdtempSync(join(tmpdir(), 'console-run-'))
  const timeoutMs = opts.timeoutMs ?? 170_000
  const child = spawn('node', ['worker/scripts/start.mjs'], {
    env: {
      ...process.env,
      ...opts.env,
      PORT: String(port),
      PARTY_PORT: String(partyPort),
      STATE_DIR: state,
      START_SKIP_BUILD: '1',
      LOG_LEVEL: opts.logLevel ?? process.env.LOG_LEVEL ?? 'log',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const keep = (c: Buffer) => {
    const text = c.toString()
    // Once started, only the lines that tell of a reload are kept (wrangler dev reloads the Worker when a watched file
    // changes, and answers 503 to a POST it was serving meanwhile): printed on stop, with their time.
    if (started) {
      for (const line of text.split('\n')) if (RELOAD.test(line)) reloads.push(`${new Date().toISOString()} ${line.trim()}`)
    } else output += text
    if (process.env.SERVER_LOG_DIR) appendFileSync(join(process.env.SERVER_LOG_DIR, `server-${port}.log`), text)
  }
  let started = false
  const reloads: string[] = []
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), timeoutMs)
    const check = setInterval(() => {
      if (output.includes('Console and realm API ready.')) {
        started = true
        output = ''
        clearInterval(check)
        clearTimeout(timer)
        resolve()
      }
    }, 200)
    child.once('exit', (code) => {
      clearInterval(check)
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })
  child.removeAllListeners('exit')
  return {
    port,
    partyPort,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        let finished = false
        // Whatever of the server's process group is still running (wrangler, PartyKit, workerd) goes too.
        const done = () => {
          if (finished) return
          finished = true
          if (reloads.length) console.warn(`The server on port ${port} reloaded its Worker while running:\n  ${reloads.join('\n  ')}`)
          try {
            process.kill(-child.pid!, 'SIGKILL')
          } catch {
            // the whole group has exited
          }
          if (!opts.state) rmSync(state, { recursive: true, force: true })
          resolve()
        }
        // start.mjs stops its children on SIGINT (their own Ctrl-C shutdown) within 3 s.
        child.once('exit', () => setTimeout(done, 2500))
        try {
          process.kill(-child.pid!, 'SIGINT')
        } catch {
          done()
        }
        setTimeout(done, 6000).unref()
      }),
  }
}
