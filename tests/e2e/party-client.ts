import { expect } from 'vitest'
import WebSocket from 'ws'
import { partyPort } from './browser'

/**
 * A real WebSocket client of the quiz party (quiz rooms and poll rooms) for the party tests: it keeps every event,
 * and `next` waits (on a condition, never a sleep) for the first event of a type that matches.
 */
export class PartyClient<M extends { type: string }> {
  readonly events: M[] = []
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.events.push(JSON.parse(String(data)) as M))
  }

  static connect<M extends { type: string }>(room: string, ticket: string): Promise<PartyClient<M>> {
    const ws = new WebSocket(`ws://127.0.0.1:${partyPort()}/parties/quiz/${room}?ticket=${encodeURIComponent(ticket)}`)
    const client = new PartyClient<M>(ws)
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client))
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
    })
  }

  send(message: unknown) {
    this.ws.send(JSON.stringify(message))
  }

  async next<T extends M['type']>(type: T, match: (e: Extract<M, { type: T }>) => boolean = () => true, from = 0) {
    let found: Extract<M, { type: T }> | undefined
    await expect
      .poll(() => {
        found = this.events.slice(from).find((e): e is Extract<M, { type: T }> => e.type === type && match(e as never))
        return found !== undefined
      })
      .toBe(true)
    return found!
  }

  count(type: M['type']) {
    return this.events.filter((e) => e.type === type).length
  }

  close() {
    this.ws.close()
  }
}
