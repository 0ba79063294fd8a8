import { readdirSync, readFileSync } from 'node:fs'
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core'
import feed from '~/i18n/locales/pt-BR/feed'
import live from '~/i18n/locales/pt-BR/live'
import { localFetch as fetch } from '../support/local-fetch'
import type { BenchContext, Scenario } from './harness'

/**
 * The conference's full mesh in Chromium (issue 20): for 2, 4 and 6 transmitters, one Chromium with fake media
 * devices (`--use-fake-device-for-media-stream`, `--allow-loopback-in-peer-connection`) opens one participant view per
 * transmitter of a meeting room (each signs in with the mobile-web sign-in), turns on microphone and camera and
 * transmits; once every page receives every other's media (inbound bytes in getStats), the CPU time of Chromium's
 * whole process tree is read over WINDOW_MS and printed per participant, as % of one core. Asserts nothing.
 * `BENCH_ONLY=conference-mesh npm run bench`; BENCH_MESH_SIZES (e.g. `2,4`) and BENCH_MESH_WINDOW_MS change the run.
 */
export const title = 'Conference mesh in Chromium (CPU per participant)'

const SIZES = (process.env.BENCH_MESH_SIZES ?? '2,4,6').split(',').map(Number)
const WINDOW_MS = Number(process.env.BENCH_MESH_WINDOW_MS ?? 10_000)
const PASSWORD = 'senha-do-bench-1'
// The pages' texts in the default language (the bench runs under tsx: the bundled catalogues are Vite's).
const pt: Record<string, string> = { ...feed, ...live }

/** CPU ticks (10 ms) used so far by `root` and every process below it. */
function treeCpuMs(root: number): number {
  const procs = new Map<number, { ppid: number; ticks: number }>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      procs.set(Number(entry), { ppid: Number(rest[1]), ticks: Number(rest[11]) + Number(rest[12]) })
    } catch {
      // the process ended while we read
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p; p = procs.get(p)?.ppid) if (p === root) return true
    return false
  }
  let ticks = 0
  for (const [pid, p] of procs) if (inTree(pid)) ticks += p.ticks
  return ticks * 10
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/** Bytes received over every peer connection of the page (the pages' RTCPeerConnections are recorded on creation). */
const inboundBytes = (page: Page) =>
  page.evaluate(async () => {
    const pcs = (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? []
    const byPeer: number[] = []
    for (const pc of pcs) {
      if (pc.connectionState === 'closed') continue
      let n = 0
      ;(await pc.getStats()).forEach((r: { type: string; bytesReceived?: number }) => {
        if (r.type === 'inbound-rtp') n += r.bytesReceived ?? 0
      })
      byPeer.push(n)
    }
    return byPeer
  })

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const api = ctx.base('localhost') + '/api'
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const { auth_token } = await json<{ auth_token: string }>(
    await fetch(`${api}/device`, { method: 'POST', headers, body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }) }),
  )
  const post = <T>(path: string, body: unknown) =>
    fetch(`${api}/${path}`, { method: 'POST', headers: { ...headers, 'x-api-key': auth_token }, body: JSON.stringify(body) }).then((r) => json<T>(r))
  const tag = Date.now().toString(36)

  return SIZES.map((size) => {
    let note = ''
    // Set up outside the timed request (signing in and connecting 6 pages takes longer than a request may).
    let setup: { server: BrowserServer; browser: Browser } | null = null
    let failed: unknown = null
    return {
      name: `Mesh of ${size} transmitters in one Chromium (${WINDOW_MS / 1000} s window)`,
      concurrency: 1,
      requests: 1,
      async before() {
        try {
          setup = await connectMesh(size)
        } catch (err) {
          failed = err
        }
      },
      async run() {
        if (!setup) throw failed instanceof Error ? failed : new Error(String(failed))
        const pid = setup.server.process().pid!
        const cpu0 = treeCpuMs(pid)
        const w0 = performance.now()
        await new Promise((r) => setTimeout(r, WINDOW_MS))
        const cpuMs = treeCpuMs(pid) - cpu0
        const wallMs = performance.now() - w0
        const perParticipant = (cpuMs / wallMs / size) * 100
        note = `Chromium CPU ${((cpuMs / wallMs) * 100).toFixed(0)}% of one core in all, ${perParticipant.toFixed(1)}% per participant (${size} pages, ${size * (size - 1)} peer connections)`
      },
      async after() {
        if (setup) {
          await setup.browser.close().catch(() => undefined)
          await setup.server.close()
        }
        return failed ? `not measured: ${failed instanceof Error ? failed.message : String(failed)}` : note
      },
    } satisfies Scenario
  })

  /** One Chromium with a page per transmitter of a new meeting room, every page receiving every other's media. */
  async function connectMesh(size: number): Promise<{ server: BrowserServer; browser: Browser }> {
    const room = await post<{ id: string }>('room/room', { name: `Bench mesh ${tag} ${size}`, type: 'meeting' })
    const nicks: string[] = []
    for (let i = 0; i < size; i++) {
      const nick = `mesh-${tag}-${size}-${i}`
      await post('mas/user', { nick, name: `Transmissor ${i + 1}`, password: PASSWORD, roles: [] })
      await post(`room/room/${room.id}/member`, { nick })
      nicks.push(nick)
    }
    const server = await chromium.launchServer({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        '--allow-loopback-in-peer-connection',
        '--autoplay-policy=no-user-gesture-required',
      ],
    })
    const browser = await chromium.connect(server.wsEndpoint())
    try {
      const pages: Page[] = []
      for (const nick of nicks) {
        const context = await browser.newContext()
        const page = await context.newPage()
        await page.addInitScript(() => {
          const Native = window.RTCPeerConnection
          const pcs: RTCPeerConnection[] = []
          ;(window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = pcs
          window.RTCPeerConnection = class extends Native {
            constructor(config?: RTCConfiguration) {
              super(config)
              pcs.push(this)
            }
          } as typeof RTCPeerConnection
        })
        await page.goto(`${ctx.base('demo.localhost')}/live/room/${room.id}`)
        await page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill(nick)
        await page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill(PASSWORD)
        await page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
        await page.waitForSelector('[data-live-status="open"]', { timeout: 60_000 })
        pages.push(page)
      }
      for (const page of pages) {
        await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
        await page.getByRole('button', { name: pt['live.media.transmit'] }).click({ timeout: 60_000 })
        await page.getByText(pt['live.media.on_air']).waitFor({ timeout: 60_000 })
      }
      // Every page receives media from every other one before the window opens.
      const t0 = performance.now()
      for (;;) {
        const all = await Promise.all(pages.map(inboundBytes))
        if (all.every((peers) => peers.filter((n) => n > 0).length >= size - 1)) break
        if (performance.now() - t0 > 180_000) throw new Error(`the mesh of ${size} did not connect in 180 s`)
        await new Promise((r) => setTimeout(r, 500))
      }
      return { server, browser }
    } catch (err) {
      await browser.close().catch(() => undefined)
      await server.close()
      throw err
    }
  }
}
