import { expect } from 'vitest'
import WebSocket from 'ws'
import type { ChannelServerMessage } from '../../party/channel-protocol'
import { partyPort } from './browser'

/**
 * A WebSocket client of the live parties (party/channel.ts, party/room.ts: one protocol, party/channel-protocol.ts)
 * for the party tests, as real as a browser's: it keeps every event it receives, in order.
 */
export class Client {
  readonly events: ChannelServerMessage[] = []
  closed: number | null = null
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.events.push(JSON.parse(String(data)) as ChannelServerMessage))
    ws.on('close', (code) => (this.closed = code))
  }

  /** Connects to `party`'s room `id` (a channel's id, or a console room's with party `room`). */
  static open(id: string, ticket: string, since?: number, party: 'channel' | 'room' = 'channel'): Promise<Client> {
    const q = `ticket=${encodeURIComponent(ticket)}${since === undefined ? '' : `&since=${since}`}`
    const ws = new WebSocket(`ws://127.0.0.1:${partyPort()}/parties/${party}/${id}?${q}`)
    const client = new Client(ws)
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client))
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
    })
  }

  send(message: unknown) {
    this.ws.send(JSON.stringify(message))
  }

  /** The first event (from `from`) matching, waiting for it. */
  async next<T extends ChannelServerMessage['type']>(type: T, match: (e: Extract<ChannelServerMessage, { type: T }>) => boolean = () => true, from = 0) {
    let found: Extract<ChannelServerMessage, { type: T }> | undefined
    await expect
      .poll(() => {
        found = this.events.slice(from).find((e): e is Extract<ChannelServerMessage, { type: T }> => e.type === type && match(e as never))
        return found !== undefined
      })
      .toBe(true)
    return found!
  }

  chats() {
    return this.events.flatMap((e) => (e.type === 'chat' ? [e.message] : e.type === 'welcome' ? e.messages : []))
  }

  close() {
    this.ws.close()
  }
}
