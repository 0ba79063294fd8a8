import WebSocket from 'ws'
import type { ChannelServerMessage } from '../../party/channel-protocol'
import type { BenchContext, Scenario } from './harness'

/**
 * The channel party under a crowd (issue 13): PARTICIPANTS guests in one public channel while SENDERS operators say
 * RATE messages a second in all for SECONDS seconds. Prints delivery p50/p99 (send → arrival at each participant, one
 * clock: the bench process) and the deliveries lost (acknowledged messages a connected participant never received)
 * and doubled. Asserts nothing. Sizes can be lowered from the shell: BENCH_CHANNEL_PARTICIPANTS, _RATE, _SECONDS.
 */
export const title = 'Channel party (WebSocket crowd)'

const PARTICIPANTS = Number(process.env.BENCH_CHANNEL_PARTICIPANTS ?? 1000)
const RATE = Number(process.env.BENCH_CHANNEL_RATE ?? 10)
const SECONDS = Number(process.env.BENCH_CHANNEL_SECONDS ?? 10)
/** Staff of the demo realm speaking as operators (exempt from the room's drop rate; each under 5 messages a second). */
const SENDERS = ['root', 'teacher', 'tutor', 'manager']

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

interface Peer {
  ws: WebSocket
  got: Map<string, number>
  doubled: number
}

function connect(partyPort: number, channelId: string, ticket: string, onChat?: (peer: Peer, m: ChannelServerMessage) => void): Promise<Peer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${partyPort}/parties/channel/${channelId}?ticket=${encodeURIComponent(ticket)}`)
    const peer: Peer = { ws, got: new Map(), doubled: 0 }
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ChannelServerMessage
      if (m.type === 'welcome') resolve(peer)
      else if (m.type === 'error') reject(new Error(`refused: ${m.cause}`))
      else if (m.type === 'chat') {
        if (peer.got.has(m.message.id)) peer.doubled++
        else peer.got.set(m.message.id, performance.now())
      }
      onChat?.(peer, m)
    })
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const api = ctx.base('localhost') + '/api'
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const tokens = await Promise.all(
    SENDERS.map(async (nick) => {
      const { auth_token } = await json<{ auth_token: string }>(
        await fetch(`${api}/device`, { method: 'POST', headers, body: JSON.stringify({ realm: 'demo', nick, password: 'demo1234' }) }),
      )
      return auth_token
    }),
  )
  const channel = await json<{ id: string }>(
    await fetch(`${api}/channel`, {
      method: 'POST',
      headers: { ...headers, 'x-api-key': tokens[0] },
      body: JSON.stringify({
        name: `Bench crowd ${Date.now().toString(36)}`,
        // The channel's own user limit lets the crowd in (the realm's default is 300 per room).
        modes: { user_limit: 100_000 },
        members: SENDERS.map((nick, i) => ({ nick, permission: i === 0 ? 'owner' : 'operator' })),
      }),
    }),
  )
  const senderTicket = (token: string) =>
    fetch(`${api}/channel/live/${channel.id}/ticket`, { method: 'POST', headers: { ...headers, 'x-api-key': token } }).then((r) => json<{ ticket: string }>(r))
  const guestTicket = (i: number) =>
    fetch(`${api}/channel/live/${channel.id}/guest`, { method: 'POST', headers, body: JSON.stringify({ name: `Visitante ${i}` }) }).then((r) =>
      json<{ ticket: string }>(r),
    )

  let note = ''
  return [
    {
      name: `Channel party crowd: ${PARTICIPANTS} participants, ${RATE} msg/s for ${SECONDS} s`,
      concurrency: 1,
      requests: 1,
      async run() {
        const crowd: Peer[] = []
        const t0 = performance.now()
        for (let i = 0; i < PARTICIPANTS; i += 50) {
          const batch = await Promise.all(Array.from({ length: Math.min(50, PARTICIPANTS - i) }, (_, k) => guestTicket(i + k)))
          crowd.push(...(await Promise.all(batch.map((t) => connect(ctx.partyPort, channel.id, t.ticket)))))
        }
        const joinSeconds = (performance.now() - t0) / 1000
        const acked = new Set<string>()
        const refused = new Set<string>()
        const sent = new Map<string, number>()
        const senders = await Promise.all(
          tokens.map(async (token) =>
            connect(ctx.partyPort, channel.id, (await senderTicket(token)).ticket, (_peer, m) => {
              if (m.type === 'ack') acked.add(m.id)
              else if ((m.type === 'slow_down' || m.type === 'error') && m.ref) refused.add(m.ref)
            }),
          ),
        )
        const total = RATE * SECONDS
        const gap = 1000 / RATE
        const start = performance.now()
        for (let n = 0; n < total; n++) {
          const wait = start + n * gap - performance.now()
          if (wait > 0) await new Promise((r) => setTimeout(r, wait))
          const id = `b-${n}`
          sent.set(id, performance.now())
          senders[n % senders.length].ws.send(JSON.stringify({ type: 'chat', id, text: `mensagem ${n}` }))
        }
        // Every message answered (acknowledged or refused), then the last deliveries arrive.
        const until = performance.now() + 10_000
        while (performance.now() < until && acked.size + refused.size < total) await new Promise((r) => setTimeout(r, 50))
        while (performance.now() < until && crowd.some((p) => p.got.size < acked.size)) await new Promise((r) => setTimeout(r, 100))
        const latencies: number[] = []
        let lost = 0
        let doubled = 0
        for (const p of crowd) {
          doubled += p.doubled
          for (const id of acked) {
            const at = p.got.get(id)
            if (at === undefined) lost++
            else latencies.push(at - sent.get(id)!)
          }
        }
        latencies.sort((a, b) => a - b)
        note =
          `delivery p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms; ` +
          `${lost} lost, ${doubled} doubled of ${(acked.size * crowd.length).toLocaleString('en')} deliveries ` +
          `(${acked.size}/${total} messages acknowledged, ${refused.size} refused; join of ${crowd.length} in ${joinSeconds.toFixed(1)} s)`
        for (const p of [...crowd, ...senders]) p.ws.close()
      },
      after: async () => note,
    },
  ]
}
