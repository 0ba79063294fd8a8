import type * as Party from 'partykit/server'
import * as v from 'valibot'
import { PresenceClientMessage, type PresenceMember, type PresenceServerMessage } from './presence-protocol'
import { verifyTicket, type Ticket } from './ticket'
import { answerClose } from './socket'

type State = PresenceMember

/** Staff presence per realm: the room id is the realm code; joining needs a ticket for that realm. */
export default class Presence implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: true }

  constructor(readonly room: Party.Room) {}

  static async onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    const ticket = await verifyTicket(String(lobby.env.PARTY_SECRET ?? ''), new URL(request.url).searchParams.get('ticket'), 'presence', lobby.id)
    if (!ticket) return new Response('A valid ticket is required.', { status: 401 })
    request.headers.set('x-ticket', JSON.stringify(ticket))
    return request
  }

  onConnect(connection: Party.Connection<State>, ctx: Party.ConnectionContext) {
    const ticket = JSON.parse(ctx.request.headers.get('x-ticket') ?? '{}') as Ticket
    connection.setState({ id: connection.id, nick: ticket.nick, name: ticket.name, path: '/', since: Date.now() })
    this.broadcastPresence()
  }

  onMessage(raw: string | ArrayBuffer | ArrayBufferView, sender: Party.Connection<State>) {
    let parsed: unknown
    try {
      parsed = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw as ArrayBuffer))
    } catch {
      parsed = undefined
    }
    const result = v.safeParse(PresenceClientMessage, parsed)
    if (!result.success) {
      const reply: PresenceServerMessage = { type: 'error', cause: 'invalid_message', message: result.issues[0]?.message ?? 'Invalid message.' }
      sender.send(JSON.stringify(reply))
      return
    }
    const state = sender.state
    if (state) sender.setState({ ...state, path: result.output.path })
    this.broadcastPresence()
  }

  onClose(conn: Party.Connection) {
    answerClose(conn)
    this.broadcastPresence()
  }

  onError() {
    this.broadcastPresence()
  }

  private broadcastPresence() {
    const members: PresenceMember[] = []
    for (const c of this.room.getConnections<State>()) if (c.state) members.push(c.state)
    const message: PresenceServerMessage = { type: 'presence', members }
    this.room.broadcast(JSON.stringify(message))
  }
}

Presence satisfies Party.Worker
