import { env } from 'cloudflare:test'
import { describe, expect, inject, it } from 'vitest'
import type { Persona, PersonaDialog } from '#shared/schemas/persona'
import type { ChatSessionState, ChatTranscriptSession, PersonaChatMessage, PersonaFace, PersonaStreamLine } from '#shared/schemas/persona-chat'
import { signTicket } from '../../party/ticket'
import { redactExpiredChats } from '../../worker/db/persona-chat'
import { aiRealm } from './factories'
import { api, call, expectEnvelope, userWith } from './helpers'

/** The public persona chat's realm API (issue 16 "The public chat"): the gate, sessions, streamed answers, transcripts, retention. */

const STAFF = ['persona_persona_list', 'persona_persona_get', 'persona_persona_create', 'persona_persona_edit', 'persona_dialog_create', 'persona_dialog_list']
const fixture = (name: string) => Uint8Array.from(atob(inject('knowledgeFixtures')[name]), (c) => c.charCodeAt(0))

async function setup() {
  const realm = await aiRealm({ provider: 'local' })
  const staff = await userWith(realm.code, STAFF)
  return { ...realm, token: staff.token, nick: staff.nick }
}
type Ctx = Awaited<ReturnType<typeof setup>>

async function persona(ctx: Ctx, body: Record<string, unknown> = {}, terms = true): Promise<Persona> {
  const res = await api(ctx.host, 'personai/persona', {
    method: 'POST',
    token: ctx.token,
    json: {
      name: 'Professora Ana',
      is_public: true,
      synchronized_speech: true,
      messages: {
        greeting: 'Olá! Sou a Ana.',
        unknown_answer: 'Ainda não sei responder isso.',
        call_helper: 'Vou chamar a secretaria: fale no canal /live/secretaria.',
      },
      ...body,
    },
  })
  expect(res.status, await res.clone().text()).toBe(201)
  const p = (await res.json()) as Persona
  if (terms) expect((await api(ctx.host, `personai/persona/${p.id}/terms`, { method: 'POST', token: ctx.token, json: { accept: true } })).status).toBe(200)
  return p
}

async function dialog(ctx: Ctx, personaId: string, body: Record<string, unknown>): Promise<PersonaDialog> {
  const res = await api(ctx.host, `personai/persona/${personaId}/dialog`, { method: 'POST', token: ctx.token, json: body })
  expect(res.status, await res.clone().text()).toBe(201)
  return (await res.json()) as PersonaDialog
}

const save = async (ctx: Ctx, personaId: string) =>
  expect((await api(ctx.host, `personai/persona/${personaId}/save`, { method: 'POST', token: ctx.token })).status).toBe(200)

async function upload(ctx: Ctx, personaId: string, name: string) {
  const form = new FormData()
  form.append('files', new File([new Uint8Array(fixture(name))], name))
  expect((await api(ctx.host, `personai/persona/${personaId}/knowledge`, { method: 'POST', token: ctx.token, body: form })).status).toBe(201)
}

type Started = { ticket: string; session_id: string; resumed: boolean; party: string; room: string; persona: PersonaFace }
const start = (ctx: Ctx, personaId: string, json: Record<string, unknown> = {}, token?: string) =>
  api(ctx.host, `personai/chat/${personaId}/session`, { method: 'POST', json, token })

/** A call of the party: its service ticket for the session. */
async function party(ctx: Ctx, sessionId: string, path: string, json?: unknown, realm = ctx.code) {
  const ticket = await signTicket(env.PARTY_SECRET!, { party: 'persona-chat-api', room: sessionId, realm, nick: 'party', name: 'party' })
  return api('localhost', `personai/chat/session/${sessionId}${path}`, {
    method: json === undefined ? 'GET' : 'POST',
    json,
    headers: { 'x-party-ticket': ticket, 'x-api-realm': realm },
  })
}

async function lines(res: Response): Promise<PersonaStreamLine[]> {
  const body = new TextDecoder().decode(await res.arrayBuffer())
  expect(res.status, body).toBe(200)
  expect(res.headers.get('content-type')).toContain('application/x-ndjson')
  return body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as PersonaStreamLine)
}
const done = (ls: PersonaStreamLine[]) => {
  const last = ls[ls.length - 1]
  if (last.type !== 'done') throw new Error(`no answer: ${JSON.stringify(last)}`)
  return last.message
}

describe('public persona chat: the gate', () => {
  it('opens a public persona to a guest with its face, greets a new session and mints a ticket to its room', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const face = (await (await api(ctx.host, `personai/chat/${p.id}`)).json()) as PersonaFace & { signed_in: boolean }
    expect(face).toMatchObject({ id: p.id, name: 'Professora Ana', is_public: true, helper: true, signed_in: false, language: 'pt-BR' })
    expect(face).not.toHaveProperty('messages')
    const res = await start(ctx, p.id)
    expect(res.status, await res.clone().text()).toBe(200)
    const s = (await res.json()) as Started
    expect(s).toMatchObject({ party: 'personachat', room: s.session_id, resumed: false })
    expect(s.session_id).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const state = (await (await party(ctx, s.session_id, '')).json()) as ChatSessionState
    expect(state.session).toMatchObject({ persona_id: p.id, visitor_nick: '', language: 'pt-BR' })
    expect(state.messages).toEqual([expect.objectContaining({ seq: 1, role: 'persona', kind: 'greeting', text: 'Olá! Sou a Ana.' })])
  })

  it('resumes the client’s own session; another persona’s or another visitor’s session id starts a new one', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const q = await persona(ctx, { name: 'Outra' })
    const first = (await (await start(ctx, p.id)).json()) as Started
    const again = (await (await start(ctx, p.id, { session_id: first.session_id })).json()) as Started
    expect(again).toMatchObject({ session_id: first.session_id, resumed: true })
    const elsewhere = (await (await start(ctx, q.id, { session_id: first.session_id })).json()) as Started
    expect(elsewhere.resumed).toBe(false)
    expect(elsewhere.session_id).not.toBe(first.session_id)
    // A guest's session is not a signed-in user's: their token does not take it over.
    const signedIn = (await (await start(ctx, p.id, { session_id: first.session_id }, ctx.token)).json()) as Started
    expect(signedIn.session_id).not.toBe(first.session_id)
    await expectEnvelope(await start(ctx, p.id, { session_id: 'short' }), 400)
  })

  it('a private persona needs a signed-in visitor (401 login_required), then opens with the session', async () => {
    const ctx = await setup()
    const p = await persona(ctx, { is_public: false })
    await expectEnvelope(await api(ctx.host, `personai/chat/${p.id}`), 401, 'login_required')
    await expectEnvelope(await start(ctx, p.id), 401, 'login_required')
    const visitor = await userWith(ctx.code, [])
    const face = (await (await api(ctx.host, `personai/chat/${p.id}`, { token: visitor.token })).json()) as { signed_in: boolean }
    expect(face.signed_in).toBe(true)
    const s = (await (await start(ctx, p.id, {}, visitor.token)).json()) as Started
    const state = (await (await party(ctx, s.session_id, '')).json()) as ChatSessionState
    expect(state.session.visitor_nick).toBe(visitor.nick)
    expect(state.persona.is_public).toBe(false)
  })

  it('says why it cannot open: terms not accepted (409), persona_enabled off (403), an unknown persona (404)', async () => {
    const ctx = await setup()
    const p = await persona(ctx, {}, false)
    await expectEnvelope(await api(ctx.host, `personai/chat/${p.id}`), 409, 'terms_required')
    await expectEnvelope(await start(ctx, p.id), 409, 'terms_required')
    const q = await persona(ctx)
    await env.DB.prepare('UPDATE realm SET persona_enabled = 0 WHERE code = ?').bind(ctx.code).run()
    await expectEnvelope(await start(ctx, q.id), 403, 'disabled')
    await expectEnvelope(await api(ctx.host, 'personai/chat/nope'), 404, 'not_found')
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM persona_chat_session WHERE realm = ?').bind(ctx.code).first('n')).toBe(0)
  })
})

describe('public persona chat: answers for the party', () => {
  it('refuses a call without the party’s ticket, or with another session’s', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const s = (await (await start(ctx, p.id)).json()) as Started
    await expectEnvelope(await api('localhost', `personai/chat/session/${s.session_id}`, { headers: { 'x-api-realm': ctx.code } }), 401, 'unauthorized')
    const other = await signTicket(env.PARTY_SECRET!, { party: 'persona-chat-api', room: 'x'.repeat(24), realm: ctx.code, nick: 'party', name: 'p' })
    await expectEnvelope(
      await api('localhost', `personai/chat/session/${s.session_id}/answer`, {
        method: 'POST',
        json: { kind: 'question', seq: 2, text: 'Oi' },
        headers: { 'x-party-ticket': other },
      }),
      401,
      'unauthorized',
    )
    // The realm is the ticket's: another realm's ticket does not find the session.
    const elsewhere = await aiRealm({ provider: 'local' })
    await expectEnvelope(await party(ctx, s.session_id, '', undefined, elsewhere.code), 404, 'not_found')
  })

  it('streams the dialog answer, then a knowledge answer quoting the uploaded PDF, then the unknown-answer message; each stored once with its source', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const d = await dialog(ctx, p.id, { type: 'conversation', questions: ['Quando abre a escola?'], answers: [{ type: 'text', text: 'A escola abre às 7h.' }] })
    await upload(ctx, p.id, 'biologia.pdf')
    // Drafts are the editor's: the public chat answers from saved items only.
    const s = (await (await start(ctx, p.id)).json()) as Started
    const draft = done(await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 2, text: 'A escola abre quando?' })))
    expect(draft).toMatchObject({ kind: 'unknown', text: 'Ainda não sei responder isso.' })
    await save(ctx, p.id)

    const dl = await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 4, text: 'A escola abre quando?' }))
    expect(dl[0]).toEqual({ type: 'delta', text: 'A escola abre às 7h.' })
    expect(done(dl)).toMatchObject({ seq: 5, role: 'persona', kind: 'dialog', dialog_id: d.id, text: 'A escola abre às 7h.', sources: [] })

    const kl = await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 6, text: 'Onde acontece a respiração celular?' }))
    const known = done(kl)
    expect(kl.filter((l) => l.type === 'delta').length).toBeGreaterThan(1)
    expect(kl.flatMap((l) => (l.type === 'delta' ? [l.text] : [])).join('')).toBe(known.text)
    expect(known).toMatchObject({ seq: 7, kind: 'knowledge', engine: 'local' })
    expect(known.sources[0].title).toBe('biologia.pdf (p. 2)')
    expect(known.sources[0].quote).toContain('A respiração celular acontece nas mitocôndrias.')
    expect(known.text).toContain('[1]')

    // The same turn again (a retried call) answers what was stored, and stores nothing more.
    const retried = done(await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 6, text: 'Onde acontece a respiração celular?' })))
    expect(retried).toEqual(known)

    const staff = await api(ctx.host, `personai/persona/${p.id}/transcript/${s.session_id}`, { token: ctx.token })
    const t = (await staff.json()) as { session: ChatTranscriptSession; messages: PersonaChatMessage[] }
    expect(t.messages.map((m) => [m.seq, m.role, m.kind])).toEqual([
      [1, 'persona', 'greeting'],
      [2, 'visitor', 'question'],
      [3, 'persona', 'unknown'],
      [4, 'visitor', 'question'],
      [5, 'persona', 'dialog'],
      [6, 'visitor', 'question'],
      [7, 'persona', 'knowledge'],
    ])
    expect(t.messages[6].sources).toEqual(known.sources)
    expect(t.session.message_count).toBe(7)
  })

  it('streams a model’s answer through the OpenAI-compatible engine piece by piece; a provider failure ends the stream with its cause and keeps the question', async () => {
    const realm = await aiRealm()
    const staff = await userWith(realm.code, STAFF)
    const ctx = { ...realm, token: staff.token, nick: staff.nick }
    const p = await persona(ctx)
    await upload(ctx, p.id, 'ciclo-da-agua.txt')
    await save(ctx, p.id)
    const s = (await (await start(ctx, p.id)).json()) as Started
    await fetch(`${env.TEST_AI_PROVIDERS}/__script`, { method: 'POST', body: JSON.stringify({ model: realm.model, replies: [{ status: 500 }] }) })
    const failed = await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 2, text: 'O que acontece quando a água evapora?' }))
    expect(failed[failed.length - 1]).toMatchObject({ type: 'error', cause: 'ai_provider_failed' })

    const ml = await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 3, text: 'O que acontece quando a água evapora?' }))
    const answer = done(ml)
    expect(answer).toMatchObject({ seq: 4, kind: 'knowledge', engine: 'openai' })
    // The protocol server echoes the question in pieces of five characters: each piece reached the stream.
    expect(ml.filter((l) => l.type === 'delta').length).toBeGreaterThan(3)
    expect(ml.flatMap((l) => (l.type === 'delta' ? [l.text] : [])).join('')).toBe(answer.text)
    expect(answer.sources[0].title).toBe('ciclo-da-agua.txt')
    const t = (await (await api(ctx.host, `personai/persona/${p.id}/transcript/${s.session_id}`, { token: ctx.token })).json()) as {
      messages: PersonaChatMessage[]
    }
    expect(t.messages.map((m) => [m.seq, m.kind])).toEqual([
      [1, 'greeting'],
      [2, 'question'],
      [3, 'question'],
      [4, 'knowledge'],
    ])
  })

  it('an option leads to its dialog; a call for a human answers the call-helper message and marks the session', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const target = await dialog(ctx, p.id, { type: 'conversation', questions: ['Qual o horário?'], answers: [{ type: 'text', text: 'Das 7h às 12h.' }] })
    await save(ctx, p.id)
    const s = (await (await start(ctx, p.id)).json()) as Started
    const option = done(await lines(await party(ctx, s.session_id, '/answer', { kind: 'option', seq: 2, text: 'Horário', dialog_id: target.id })))
    expect(option).toMatchObject({ kind: 'dialog', dialog_id: target.id, text: 'Das 7h às 12h.' })
    await expectEnvelope(await party(ctx, s.session_id, '/answer', { kind: 'option', seq: 4, text: 'x', dialog_id: 'nope' }), 422, 'not_found')
    const helper = done(await lines(await party(ctx, s.session_id, '/answer', { kind: 'helper', seq: 4 })))
    expect(helper).toMatchObject({ kind: 'helper_answer', text: 'Vou chamar a secretaria: fale no canal /live/secretaria.' })
    const list = (await (await api(ctx.host, `personai/persona/${p.id}/transcript?helper=1`, { token: ctx.token })).json()) as {
      items: ChatTranscriptSession[]
    }
    expect(list.items.map((i) => i.id)).toEqual([s.session_id])
    expect(list.items[0].helper_requested_at).not.toBeNull()

    const quiet = await persona(ctx, { messages: { greeting: 'Oi' } })
    const qs = (await (await start(ctx, quiet.id)).json()) as Started
    expect(qs.persona.helper).toBe(false)
    await expectEnvelope(await party(ctx, qs.session_id, '/answer', { kind: 'helper', seq: 2 }), 409, 'helper_unavailable')
    await expectEnvelope(await party(ctx, qs.session_id, '/answer', { kind: 'question', seq: 0, text: 'x' }), 400)
  })
})

describe('transcripts', () => {
  it('lists a persona’s sessions newest first with a cursor, to staff with the persona permission only', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const ids: string[] = []
    for (let i = 0; i < 3; i++) ids.push(((await (await start(ctx, p.id)).json()) as Started).session_id)
    const page1 = (await (await api(ctx.host, `personai/persona/${p.id}/transcript?limit=2`, { token: ctx.token })).json()) as {
      items: ChatTranscriptSession[]
      next_cursor: string | null
    }
    expect(page1.items).toHaveLength(2)
    expect(page1.next_cursor).not.toBeNull()
    const page2 = (await (
      await api(ctx.host, `personai/persona/${p.id}/transcript?limit=2&cursor=${encodeURIComponent(page1.next_cursor!)}`, { token: ctx.token })
    ).json()) as { items: ChatTranscriptSession[]; next_cursor: string | null }
    expect(page2.next_cursor).toBeNull()
    expect([...page1.items, ...page2.items].map((i) => i.id).sort()).toEqual([...ids].sort())
    const outsider = await userWith(ctx.code, ['persona_persona_list'])
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/transcript`, { token: outsider.token }), 403, 'forbidden')
    await expectEnvelope(await api(ctx.host, `personai/persona/${p.id}/transcript?cursor=bad`, { token: ctx.token }), 400)
    const q = await persona(ctx, { name: 'Outra' })
    await expectEnvelope(await api(ctx.host, `personai/persona/${q.id}/transcript/${ids[0]}`, { token: ctx.token }), 404, 'not_found')
  })

  it('clears visitors’ personal data past the realm’s retention, keeping the persona’s answers and their sources', async () => {
    const ctx = await setup()
    const p = await persona(ctx, { is_public: false })
    await dialog(ctx, p.id, { type: 'conversation', questions: ['Quando abre a escola?'], answers: [{ type: 'text', text: 'Às 7h.' }] })
    await save(ctx, p.id)
    const visitor = await userWith(ctx.code, [])
    const s = (await (await start(ctx, p.id, {}, visitor.token)).json()) as Started
    done(await lines(await party(ctx, s.session_id, '/answer', { kind: 'question', seq: 2, text: 'Meu nome é Joana: quando abre a escola?' })))
    const admin = await userWith(ctx.code, ['mas_realm_edit'])
    const reader = await userWith(ctx.code, ['mas_realm_get'])
    expect(await (await api(ctx.host, 'personai/retention', { token: reader.token })).json()).toMatchObject({ days: 90 })
    await expectEnvelope(await api(ctx.host, 'personai/retention', { method: 'PUT', token: reader.token, json: { days: 30 } }), 403, 'forbidden')
    await expectEnvelope(await api(ctx.host, 'personai/retention', { method: 'PUT', token: admin.token, json: { days: -1 } }), 400)
    await expectEnvelope(await api(ctx.host, 'personai/retention', { method: 'PUT', token: admin.token, json: { days: 1.5 } }), 400)
    const put = await api(ctx.host, 'personai/retention', { method: 'PUT', token: admin.token, json: { days: 30 } })
    expect(await put.json()).toMatchObject({ days: 30, updated_by: admin.nick })

    const read = async () =>
      (await (await api(ctx.host, `personai/persona/${p.id}/transcript/${s.session_id}`, { token: ctx.token })).json()) as {
        session: ChatTranscriptSession
        messages: PersonaChatMessage[]
      }
    await redactExpiredChats(env.DB, new Date(Date.now() + 29 * 86_400_000))
    expect((await read()).session.visitor_nick).toBe(visitor.nick)
    await redactExpiredChats(env.DB, new Date(Date.now() + 31 * 86_400_000))
    const t = await read()
    expect(t.session).toMatchObject({ visitor_nick: '', visitor_name: '' })
    expect(t.session.redacted_at).not.toBeNull()
    expect(t.messages.find((m) => m.role === 'visitor')!.text).toBe('')
    expect(t.messages.find((m) => m.kind === 'dialog')!.text).toBe('Às 7h.')
    // A redacted session is not resumed: the visitor gets a new one.
    const again = (await (await start(ctx, p.id, { session_id: s.session_id }, visitor.token)).json()) as Started
    expect(again.session_id).not.toBe(s.session_id)
  })
})

describe('the chat page', () => {
  it('serves the public chat route where persona_enabled holds', async () => {
    const ctx = await setup()
    const p = await persona(ctx)
    const res = await call(ctx.host, `/personai/chat/${p.id}`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('Professora Ana')
  })
})
