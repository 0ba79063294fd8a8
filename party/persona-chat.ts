import type * as Party from 'partykit/server'
import * as v from 'valibot'
import type { ChatSessionState, ChatTurnRequest, PersonaChatMessage, PersonaStreamLine } from '#shared/schemas/persona-chat'
import {
  CLOSE_REFUSED,
  PERSONA_CHAT_PARTY,
  PersonaChatClientMessage,
  type ChatCause,
  type ChatState,
  type PersonaChatServerMessage,
} from './persona-chat-protocol'
import { signTicket, verifyTicket, type Ticket } from './ticket'

/**
 * The persona-chat party (issue 16 "The public chat"): one room per chat session. Joined with the ticket the realm
 * API mints (`POST /api/personai/chat/{personaId}/session`: anyone on a public persona, signed-in users on a private
 * one); the party checks again what the ticket cannot tell (a guest ticket on a private persona is refused
 * `login_required`; only the session's visitor joins it).
 *
 * A visitor's turn (a question, an option chosen, a call for a human) is stored in the room and acknowledged, then
 * the party asks the realm API for the answer (`POST …/session/{id}/answer`, the same answer logic as the editor's
 * chat test) and relays its pieces to the clients as they come (`delta`), then the whole answer (`message`). The realm
 * API writes the transcript (D1 is authoritative for history); the room keeps the session's messages so a dropped
 * connection that comes back with `since` gets what it missed, and the answer being written so far. A room that
 * starts empty (a restarted party) reads the session's stored messages from the realm API first.
 */

const STATE_TTL_MS = 5_000

interface ConnState {
  nick: string
  since: number
}

interface Meta {
  sessionId: string
  realm: string
}

const mkey = (seq: number) => `m:${String(seq).padStart(12, '0')}`
const idkey = (id: string) => `id:${id}`

const CAUSE_TEXT: Record<ChatCause, string> = {
  invalid_message: 'The message is not valid.',
  not_found: 'This chat does not exist.',
  unavailable: 'The chat is unavailable; try again.',
  login_required: 'This persona is private: sign in to chat with it.',
  terms_required: 'This persona cannot chat until its terms are accepted.',
  forbidden: 'This chat belongs to another visitor.',
  busy: 'The persona is still answering.',
  helper_unavailable: 'No one is available to take over this chat.',
  answer_failed: 'The persona could not answer; try again.',
}

export default class PersonaChat implements Party.Server {
  private meta: Meta | null = null
  private seq = 0
  private started = false
  private language = ''
  private answering = false
  private partial: { seq: number; text: string } | null = null
  private loaded = false
  private cache: { state: ChatSessionState; at: number } | null = null

  constructor(readonly room: Party.Room) {}

  static async onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    const ticket = await verifyTicket(String(lobby.env.PARTY_SECRET ?? ''), new URL(request.url).searchParams.get('ticket'), PERSONA_CHAT_PARTY, lobby.id)
    if (!ticket) return new Response('A valid ticket is required.', { status: 401 })
    request.headers.set('x-ticket', JSON.stringify(ticket))
    return request
  }

  async onStart() {
    const got = await this.room.storage.get<unknown>(['meta', 'seq', 'started', 'language'])
    this.meta = (got.get('meta') as Meta | undefined) ?? null
    this.seq = (got.get('seq') as number | undefined) ?? 0
    this.started = (got.get('started') as boolean | undefined) ?? false
    this.language = (got.get('language') as string | undefined) ?? ''
    this.loaded = this.meta !== null
  }

  async onConnect(conn: Party.Connection<ConnState>, ctx: Party.ConnectionContext) {
    const ticket = JSON.parse(ctx.request.headers.get('x-ticket') ?? '{}') as Ticket
    const sinceParam = new URL(ctx.request.url).searchParams.get('since')
    const since = sinceParam && /^\d{1,15}$/.test(sinceParam) ? Number(sinceParam) : 0
    if (!this.meta) this.meta = { sessionId: ticket.room, realm: ticket.realm }
    if (this.meta.realm !== ticket.realm) return this.refuse(conn, 'not_found')
    const state = await this.state(true)
    if (state === 'missing') return this.refuse(conn, 'not_found')
    if (!state) return this.refuse(conn, 'unavailable')
    if (!state.persona.is_public && ticket.role !== 'user') return this.refuse(conn, 'login_required')
    if (state.unavailable) return this.refuse(conn, state.unavailable)
    if (state.session.visitor_nick !== (ticket.role === 'user' ? ticket.nick : '')) return this.refuse(conn, 'forbidden')

    if (!this.loaded) {
      // A new room, or one whose storage went: the session's stored messages first (the greeting, a restarted party's history).
      const entries: Record<string, unknown> = { meta: this.meta, language: state.session.language }
      for (const m of state.messages) entries[mkey(m.seq)] = m
      this.seq = Math.max(this.seq, ...state.messages.map((m) => m.seq), 0)
      this.started = state.messages.some((m) => m.role === 'visitor')
      this.language = state.session.language
      entries.seq = this.seq
      entries.started = this.started
      await this.room.storage.put(entries)
      this.loaded = true
    }

    conn.setState({ nick: ticket.nick, since })
    const messages = [...(await this.room.storage.list<PersonaChatMessage>({ prefix: 'm:', start: mkey(since + 1) })).values()]
    this.send(conn, {
      type: 'welcome',
      session_id: this.meta.sessionId,
      persona: state.persona,
      messages,
      partial: this.partial,
      seq: this.seq,
      state: this.chatState(),
      now: Date.now(),
    })
  }

  async onMessage(raw: string | ArrayBuffer | ArrayBufferView, sender: Party.Connection<ConnState>) {
    let data: unknown
    try {
      data = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw as ArrayBuffer))
    } catch {
      return this.error(sender, 'invalid_message')
    }
    const parsed = v.safeParse(PersonaChatClientMessage, data)
    if (!parsed.success) return this.error(sender, 'invalid_message', parsed.issues[0]?.message)
    const msg = parsed.output
    if (msg.type === 'language') {
      this.language = msg.language
      await this.room.storage.put('language', this.language)
      return this.broadcast({ type: 'state', state: this.chatState() })
    }
    // A resend of a turn already taken is answered with the same acknowledgement.
    const seen = await this.room.storage.get<number>(idkey(msg.id))
    if (seen !== undefined) return this.send(sender, { type: 'ack', id: msg.id, seq: seen })
    if (this.answering) return this.error(sender, 'busy', undefined, msg.id)
    const state = await this.state(false)
    if (!state || state === 'missing') return this.error(sender, 'unavailable', undefined, msg.id)
    if (msg.type === 'helper' && !state.persona.helper) return this.error(sender, 'helper_unavailable', undefined, msg.id)
    await this.turn(msg, sender)
  }

  /** Stores the visitor's turn, acknowledges it, then relays the answer from the realm API as it is written. */
  private async turn(msg: Exclude<PersonaChatClientMessage, { type: 'language' }>, sender: Party.Connection) {
    const seq = this.seq + 1
    const kind = msg.type === 'ask' ? 'question' : msg.type
    const text = msg.type === 'helper' ? '' : msg.text
    const asked: PersonaChatMessage = { seq, role: 'visitor', kind, text, dialog_id: null, answers: [], sources: [], engine: null, at: Date.now() }
    this.seq = seq
    this.started = true
    this.answering = true
    this.partial = { seq: seq + 1, text: '' }
    await this.room.storage.put({ [mkey(seq)]: asked, [idkey(msg.id)]: seq, seq, started: true })
    this.broadcast({ type: 'message', message: asked })
    this.send(sender, { type: 'ack', id: msg.id, seq })
    this.broadcast({ type: 'state', state: this.chatState() })

    const language = this.language || undefined
    const body: ChatTurnRequest =
      msg.type === 'ask'
        ? { kind: 'question', seq, text: msg.text, language: language as ChatTurnRequest['language'] }
        : msg.type === 'option'
          ? { kind: 'option', seq, text: msg.text, dialog_id: msg.dialog_id, language: language as ChatTurnRequest['language'] }
          : { kind: 'helper', seq, language: language as ChatTurnRequest['language'] }
    let failure: { cause: ChatCause; message?: string } | null = null
    try {
      const done = await this.relay(body, seq + 1)
      if ('answer' in done) {
        this.seq = done.answer.seq
        await this.room.storage.put({ [mkey(done.answer.seq)]: done.answer, seq: this.seq })
        this.broadcast({ type: 'message', message: done.answer })
      } else failure = done
    } catch {
      failure = { cause: 'answer_failed' }
    }
    this.answering = false
    this.partial = null
    if (failure) this.broadcast({ type: 'error', cause: failure.cause, message: failure.message ?? CAUSE_TEXT[failure.cause], ref: msg.id })
    this.broadcast({ type: 'state', state: this.chatState() })
  }

  /** Reads the answer stream of the realm API, relaying each piece; the stored answer, or why there is none. */
  private async relay(body: ChatTurnRequest, answerSeq: number): Promise<{ answer: PersonaChatMessage } | { cause: ChatCause; message?: string }> {
    const res = await this.api('POST', 'answer', body)
    if (!res) return { cause: 'unavailable' }
    if (!res.ok || !res.body) {
      const envelope = (await res.json().catch(() => null)) as { errors?: { cause: string; message: string }[] } | null
      const cause = envelope?.errors?.[0]?.cause
      return {
        cause:
          cause === 'terms_required' || cause === 'helper_unavailable' || cause === 'disabled'
            ? cause === 'disabled'
              ? 'unavailable'
              : cause
            : 'answer_failed',
      }
    }
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader()
    let buffer = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (value) buffer += value
      let nl: number
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl).trim()
        buffer = buffer.slice(nl + 1)
        if (!line) continue
        const event = JSON.parse(line) as PersonaStreamLine
        if (event.type === 'delta') {
          if (this.partial) this.partial.text += event.text
          this.broadcast({ type: 'delta', seq: answerSeq, text: event.text })
        } else if (event.type === 'done') return { answer: event.message }
        else return { cause: event.cause === 'terms_required' ? 'terms_required' : 'answer_failed', message: event.message }
      }
      if (done) return { cause: 'answer_failed' }
    }
  }

  private chatState(): ChatState {
    return { started: this.started, answering: this.answering, disabled: this.answering, language: this.language }
  }

  // ---------------------------------------------------------------- realm API

  /** The session's state from the realm API (cached, `fresh` skips the cache); 'missing' when it is gone, null when unreachable. */
  private async state(fresh: boolean): Promise<ChatSessionState | 'missing' | null> {
    if (!fresh && this.cache && Date.now() - this.cache.at < STATE_TTL_MS) return this.cache.state
    const res = await this.api('GET', '')
    if (res?.status === 404 || res?.status === 403) return 'missing'
    if (!res?.ok) return this.cache?.state ?? null
    this.cache = { state: (await res.json()) as ChatSessionState, at: Date.now() }
    return this.cache.state
  }

  /** A call to `/api/personai/chat/session/{id}[/path]` with the party's service ticket; null when the API cannot be reached. */
  private async api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response | null> {
    const meta = this.meta
    const env = this.room.env
    if (!meta || !env.PARTY_SECRET || !env.REALM_API_URL) return null
    const ticket = await signTicket(String(env.PARTY_SECRET), {
      party: 'persona-chat-api',
      room: meta.sessionId,
      realm: meta.realm,
      nick: 'party',
      name: 'persona-chat party',
    })
    try {
      return await fetch(
        `${String(env.REALM_API_URL).replace(/\/$/, '')}/api/personai/chat/session/${encodeURIComponent(meta.sessionId)}${path ? `/${path}` : ''}`,
        {
          method,
          headers: { 'x-party-ticket': ticket, 'x-api-realm': meta.realm, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
      )
    } catch {
      return null
    }
  }

  // ---------------------------------------------------------------- sending

  private refuse(conn: Party.Connection, cause: ChatCause) {
    this.send(conn, { type: 'error', cause, message: CAUSE_TEXT[cause] })
    conn.close(CLOSE_REFUSED, cause)
  }

  private send(conn: Party.Connection, message: PersonaChatServerMessage) {
    conn.send(JSON.stringify(message))
  }

  private error(conn: Party.Connection, cause: ChatCause, message?: string, ref?: string) {
    this.send(conn, { type: 'error', cause, message: message ?? CAUSE_TEXT[cause], ...(ref ? { ref } : {}) })
  }

  private broadcast(message: PersonaChatServerMessage) {
    const payload = JSON.stringify(message)
    for (const c of this.room.getConnections()) c.send(payload)
  }
}

PersonaChat satisfies Party.Worker
