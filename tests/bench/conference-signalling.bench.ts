import WebSocket from 'ws'
import type { ChannelServerMessage } from '../../party/channel-protocol'
import type { BenchContext, Scenario } from './harness'

/**
 * The live party's conference signalling (issue 20): PARTICIPANTS guests join one public channel (tickets minted
 * beforehand, so the figure is the party's: connect → welcome, every join announced to everyone present), then each
 * sends a receive-only offer to the owner, who answers it (offer → answer round trip through the party, with the
 * SDP read to see what it sends). Prints joins per second and the signalling round trips; asserts nothing about time.
 * `BENCH_ONLY=conference-signalling npm run bench`; BENCH_SIGNAL_PARTICIPANTS lowers the crowd.
 */
export const title = 'Conference signalling (party joins and offer/answer relay)'

const PARTICIPANTS = Number(process.env.BENCH_SIGNAL_PARTICIPANTS ?? 200)
const JOIN_CONCURRENCY = 10

const WATCH = [
  'v=0',
  'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'c=IN IP4 0.0.0.0',
  'a=recvonly',
  'a=rtpmap:111 opus/48000/2',
  'm=video 9 UDP/TLS/RTP/SAVPF 96',
  'c=IN IP4 0.0.0.0',
  'a=recvonly',
  'a=rtpmap:96 VP8/90000',
  '',
].join('\r\n')

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

interface Peer {
  ws: WebSocket
  nick: string
  waiting: Map<string, () => void>
}

function connect(partyPort: number, channelId: string, ticket: string, onMessage?: (m: ChannelServerMessage) => void): Promise<Peer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${partyPort}/parties/channel/${channelId}?ticket=${encodeURIComponent(ticket)}`)
    const peer: Peer = { ws, nick: '', waiting: new Map() }
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as ChannelServerMessage
      if (m.type === 'welcome') {
        peer.nick = m.you.nick
        resolve(peer)
      } else if (m.type === 'error') reject(new Error(`refused: ${m.cause}`))
      else if (m.type === 'answer') peer.waiting.get(m.from)?.()
      onMessage?.(m)
    })
    ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
    ws.once('error', reject)
  })
}

export async function scenarios(ctx: BenchContext): Promise<Scenario[]> {
  const api = ctx.base('localhost') + '/api'
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const { auth_token } = await json<{ auth_token: string }>(
    await fetch(`${api}/device`, { method: 'POST', headers, body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }) }),
  )
  const channel = await json<{ id: string }>(
    await fetch(`${api}/channel`, {
      method: 'POST',
      headers: { ...headers, 'x-api-key': auth_token },
      body: JSON.stringify({
        name: `Bench signalling ${Date.now().toString(36)}`,
        modes: { user_limit: 100_000 },
        members: [{ nick: 'root', permission: 'owner' }],
      }),
    }),
  )
  const owner = await connect(
    ctx.partyPort,
    channel.id,
    (
      await json<{ ticket: string }>(
        await fetch(`${api}/channel/live/${channel.id}/ticket`, { method: 'POST', headers: { ...headers, 'x-api-key': auth_token } }),
      )
    ).ticket,
    (m) => {
      // The owner answers every offer (receive-only both ways, as a watcher's would be).
      if (m.type === 'offer') owner.ws.send(JSON.stringify({ type: 'answer', to: m.from, sdp: WATCH }))
    },
  )
  const tickets: string[] = []
  const crowd: Peer[] = []
  let roundTrips = 0
  return [
    {
      name: `Conference joins: ${PARTICIPANTS} participants into one room (${JOIN_CONCURRENCY} at once)`,
      concurrency: JOIN_CONCURRENCY,
      requests: PARTICIPANTS,
      // Tickets are the realm API's work (each takes a lease): minted before the timed run, used within their minute.
      async before() {
        for (let i = 0; i < PARTICIPANTS; i += 50)
          tickets.push(
            ...(await Promise.all(
              Array.from({ length: Math.min(50, PARTICIPANTS - i) }, (_, k) =>
                fetch(`${api}/channel/live/${channel.id}/guest`, { method: 'POST', headers, body: JSON.stringify({ name: `Participante ${i + k}` }) })
                  .then((r) => json<{ ticket: string }>(r))
                  .then((t) => t.ticket),
              ),
            )),
          )
      },
      async run(i) {
        crowd.push(await connect(ctx.partyPort, channel.id, tickets[i]))
      },
      after: async () => `${crowd.length} joined; every join announced to everyone present`,
    },
    {
      name: `Conference signalling: offer → answer through the party, ${PARTICIPANTS} participants (10 at once)`,
      concurrency: 10,
      requests: PARTICIPANTS,
      async run(i) {
        const peer = crowd[i % crowd.length]
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error('no answer in 10 s')), 10_000)
          peer.waiting.set(owner.nick, () => {
            clearTimeout(timer)
            peer.waiting.delete(owner.nick)
            roundTrips++
            resolve()
          })
          peer.ws.send(JSON.stringify({ type: 'offer', to: owner.nick, sdp: WATCH }))
        })
      },
      after: async () => {
        for (const p of [...crowd, owner]) p.ws.close()
        return `${roundTrips} round trips`
      },
    },
  ]
}
