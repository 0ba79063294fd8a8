import { beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { PersonaChatServerMessage } from '../../party/persona-chat-protocol'
import { partyPort } from './browser'
import { DIALOG_ANSWER, DIALOG_QUESTION, PDF_QUOTE, chatPersona, demoApi } from './persona-chat-helpers'

/**
 * The persona-chat party (issue 16 "The public chat") with real WebSocket clients against `partykit dev` as
 * `npm start` runs it: tickets from the realm API, answers streamed from the realm API as they are written, a
 * dropped connection resuming its session, and a private persona refusing a guest.
 */

const tag = Date.now().toString(36)
let persona: { id: string }

type Started = { ticket: string; session_id: string; resumed: boolean }
const guestSession = (personaId: string, sessionId?: string) =>
  demoApi<Started>('POST', `personai/chat/${personaId}/session`, sessionId ? { session_id: sessionId } : {}, null)

/** A client that records every event it receives, in order. */
class Client {
  readonly events: PersonaChatServerMessage[] = []
  closed: number | null = null
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.events.push(JSON.parse(String(data)) as PersonaChatServerMessage))
    ws.on('close', (code) => (this.closed = code))
  }

  static open(sessionId: string, ticket: string, since?: number): Promise<Client> {
    const q = `ticket=${encodeURIComponent(ticket)}${since === undefined ? '' : `&since=${since}`}`
    const ws = new WebSocket(`ws://127.0.0.1:${partyPort()}/parties/personachat/${sessionId}?${q}`)
    const client = new Client(ws)
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client))
      ws.once('unexpected-response', (_req, res) => reject(new Error(`refused ${res.statusCode}`)))
    })
  }

  send(message: unknown) {
    this.ws.send(JSON.stringify(message))
  }

  async next<T extends PersonaChatServerMessage['type']>(type: T, match: (e: Extract<PersonaChatServerMessage, { type: T }>) => boolean = () => true) {
    let found: Extract<PersonaChatServerMessage, { type: T }> | undefined
    await expect
      .poll(
        () => {
          found = this.events.find((e): e is Extract<PersonaChatServerMessage, { type: T }> => e.type === type && match(e as never))
          return found !== undefined
        },
        { timeout: 20_000 },
      )
      .toBe(true)
    return found!
  }

  close() {
    this.ws.close()
  }
}

describe('persona-chat party', () => {
  beforeAll(async () => {
    persona = await chatPersona(`Festa ${tag}`)
  }, 60_000)

  it('refuses a connection without a valid ticket, and a ticket for another session', async () => {
    const a = await guestSession(persona.id)
    const b = await guestSession(persona.id)
    await expect(Client.open(a.session_id, 'forged.ticket')).rejects.toThrow('refused 401')
    await expect(Client.open(a.session_id, b.ticket)).rejects.toThrow('refused 401')
  })

  it('greets, then streams the dialog answer to a question, and a knowledge answer citing the PDF passage', async () => {
    const s = await guestSession(persona.id)
    const c = await Client.open(s.session_id, s.ticket)
    const welcome = await c.next('welcome')
    expect(welcome.persona).toMatchObject({ id: persona.id, name: `Festa ${tag}`, helper: true })
    expect(welcome.messages).toEqual([expect.objectContaining({ seq: 1, role: 'persona', kind: 'greeting', text: `Olá! Eu sou Festa ${tag}.` })])
    expect(welcome.state).toMatchObject({ started: false, answering: false, disabled: false })

    c.send({ type: 'ask', id: 'q1', text: DIALOG_QUESTION })
    expect((await c.next('ack', (e) => e.id === 'q1')).seq).toBe(2)
    expect(await c.next('delta', (e) => e.seq === 3)).toMatchObject({ text: DIALOG_ANSWER })
    const dialog = (await c.next('message', (e) => e.message.seq === 3)).message
    expect(dialog).toMatchObject({ role: 'persona', kind: 'dialog', text: DIALOG_ANSWER })
    expect(dialog.dialog_id).toBeTruthy()
    // While answering the input was off; after the answer it is on again.
    expect(c.events.some((e) => e.type === 'state' && e.state.answering && e.state.disabled)).toBe(true)
    await c.next('state', (e) => e.state.started && !e.state.answering)

    c.send({ type: 'ask', id: 'q2', text: 'Onde acontece a respiração celular?' })
    const known = (await c.next('message', (e) => e.message.seq === 5)).message
    expect(known).toMatchObject({ kind: 'knowledge', engine: 'local' })
    expect(known.sources[0].title).toMatch(/^biologia\.pdf \(p\. \d\)$/)
    expect(known.sources[0].quote).toContain(PDF_QUOTE)
    expect(known.text).toContain('[1]')
    const pieces = c.events.flatMap((e) => (e.type === 'delta' && e.seq === 5 ? [e.text] : []))
    expect(pieces.length).toBeGreaterThan(1)
    expect(pieces.join('')).toBe(known.text)

    // A resend of a turn already taken is acknowledged again, never answered twice; a bad message is refused.
    c.send({ type: 'ask', id: 'q2', text: 'Onde acontece a respiração celular?' })
    await expect.poll(() => c.events.filter((e) => e.type === 'ack' && e.id === 'q2').length).toBe(2)
    c.send({ type: 'ask', id: 'bad id!', text: 'x' })
    expect((await c.next('error', (e) => e.cause === 'invalid_message')).cause).toBe('invalid_message')
    expect(c.events.filter((e) => e.type === 'message' && e.message.role === 'persona').length).toBe(2)
    c.close()
  })

  it('a dropped connection resumes the same session: the ticket keeps the session id, and the welcome replays what was missed', async () => {
    const s = await guestSession(persona.id)
    const first = await Client.open(s.session_id, s.ticket)
    await first.next('welcome')
    first.send({ type: 'ask', id: 'r1', text: DIALOG_QUESTION })
    await first.next('ack', (e) => e.id === 'r1')
    first.ws.terminate()

    const again = await guestSession(persona.id, s.session_id)
    expect(again).toMatchObject({ session_id: s.session_id, resumed: true })
    const back = await Client.open(s.session_id, again.ticket, 1)
    const welcome = await back.next('welcome')
    const seen = [...welcome.messages, ...back.events.flatMap((e) => (e.type === 'message' ? [e.message] : []))]
    await expect.poll(() => [...welcome.messages, ...back.events.flatMap((e) => (e.type === 'message' ? [e.message] : []))].map((m) => m.seq)).toContain(3)
    expect(welcome.messages.every((m) => m.seq > 1)).toBe(true)
    expect(seen.find((m) => m.seq === 2)).toMatchObject({ role: 'visitor', text: DIALOG_QUESTION })
    const transcript = await demoApi<{ messages: { seq: number; kind: string }[] }>('GET', `personai/persona/${persona.id}/transcript/${s.session_id}`)
    expect(transcript.messages.map((m) => m.kind)).toEqual(['greeting', 'question', 'dialog'])
    back.close()
  })

  it('a private persona refuses a guest ticket, and the realm API mints none for a guest', async () => {
    const p = await chatPersona(`Privada ${tag}`)
    const s = await guestSession(p.id)
    await demoApi('PUT', `personai/persona/${p.id}`, {
      name: `Privada ${tag}`,
      is_public: false,
      synchronized_speech: true,
      messages: { greeting: 'Olá.', unknown_answer: 'Não sei.' },
    })
    const guest = await Client.open(s.session_id, s.ticket)
    expect((await guest.next('error')).cause).toBe('login_required')
    await expect.poll(() => guest.closed).toBe(4003)
    await expect(guestSession(p.id)).rejects.toThrow('401')
  })
})
