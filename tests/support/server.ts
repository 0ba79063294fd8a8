import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
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
  stop(): Promise<void>
}

/**
 * Starts the product exactly as `npm start` does (worker/scripts/start.ts) on free ports with a fresh state
 * directory. The console must already be built (`npm test` and `npm run bench` build first).
 */
export async function startServer(timeoutMs = 170_000): Promise<RunningServer> {
  const [port, partyPort] = [await freePort(), await freePort()]
  const state = mkdtempSync(join(tmpdir(), 'console-run-'))
  const child = spawn('node_modules/.bin/tsx', ['worker/scripts/start.ts'], {
    env: { ...process.env, PORT: String(port), PARTY_PORT: String(partyPort), STATE_DIR: state, START_SKIP_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), timeoutMs)
    const check = setInterval(() => {
      if (output.includes('Console and realm API ready.')) {
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
    stop: () =>
      new Promise<void>((resolve) => {
        let finished = false
        // Whatever of the server's process group is still running (wrangler, PartyKit, workerd) goes too.
        const done = () => {
          if (finished) return
          finished = true
          try {
            process.kill(-child.pid!, 'SIGKILL')
          } catch {
            // the whole group has exited
          }
          rmSync(state, { recursive: true, force: true })
          resolve()
        }
        // start.ts stops its children on SIGINT (their own Ctrl-C shutdown) within 2 s.
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
