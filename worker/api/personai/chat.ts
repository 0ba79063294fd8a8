import { Hono } from 'hono'
import * as v from 'valibot'
import { Voice } from '#shared/schemas/ai'
import { DialogInput, PersonaMessages, type SpeechType } from '#shared/schemas/persona'
import {
  ChatSessionStart,
  ChatTurnRequest,
  type ChatSessionState,
  type PersonaChatMessage,
  type PersonaFace,
  type PersonaStreamLine,
} from '#shared/schemas/persona-chat'
import { PERSONA_CHAT_PARTY } from '../../../party/persona-chat-protocol'
import { signTicket, verifyTicket } from '../../../party/ticket'
import { aiApiError, textFor } from '../../ai'
import { dialogText, personaIndex, streamPersonaAnswer, type PersonaAnswer } from '../../ai/persona-answer'
import { runBatch } from '../../db/batch'
import {
  type ChatPersonaRow,
  chatMessage,
  chatPersona,
  findChatSession,
  helperDialog,
  insertChatMessageStatements,
  insertChatSessionStatement,
  listChatMessages,
  savedDialogs,
  welcomeDialog,
} from '../../db/persona-chat'
import type { Auth } from '../../db/sessions'
import { randomToken } from '../../lib/crypto'
import { ApiError, apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, pathParam, requestRealm, requireAuth } from '../context'

/**
 * /personai/chat: the public persona chat's side of the realm API (issue 16 "The public chat").
 * - `GET /{personaId}`: the persona's face for the chat page (public; a private persona needs a session).
 * - `POST /{personaId}/session`: starts a chat session — or resumes the client's, when it is this visitor's — and
 *   mints the 60 s ticket to its room of the persona-chat party. Anyone on a public persona; a private one needs a
 *   signed-in user (the console's or the mobile-web session's token; 401 `login_required` otherwise).
 * - Party calls, with the party's service ticket (`x-party-ticket`: party `persona-chat-api`, room = the session):
 *   `GET /session/{id}` (the session, the persona's face, its stored messages) and `POST /session/{id}/answer` (a
 *   visitor's turn answered as an NDJSON stream, the same answer logic as the editor's chat test, both stored in the
 *   transcript once per sequence number).
 * Every gate answers why: the realm's persona_enabled (403 `disabled`), the terms agreement (409 `terms_required`).
 */
const PARTY = PERSONA_CHAT_PARTY
export const PERSONA_CHAT_API = 'persona-chat-api'

/** The caller's session when it sent one (a signed-in visitor), else null (a guest); a bad token is 401. */
async function visitor(c: Ctx): Promise<Auth | null> {
  return c.req.header('x-api-key') ? requireAuth(c) : null
}

/** The persona of the path in the caller's realm, if the chat may open for this caller; else why not. */
async function gate(c: Ctx, auth: Auth | null): Promise<{ realm: string; persona: ChatPersonaRow }> {
  const realm = auth?.realm ?? requestRealm(c)
  const id = pathParam(c, 'personaId')
  const persona = realm ? await chatPersona(c.env.DB, realm, id) : null
  if (!realm || !persona) throw apiError(404, 'not_found', 'persona.not_found', 'persona_id', id)
  if (persona.persona_enabled !== 1) throw apiError(403, 'disabled', 'This realm does not have persona_enabled.', 'realm', 'persona_enabled')
  if (persona.is_public !== 1 && !auth) throw apiError(401, 'login_required', 'persona.chat.login_required', 'persona_id', id)
  if (!persona.terms_accepted_at) throw apiError(409, 'terms_required', 'persona.chat.terms_required', 'terms', null)
  return { realm, persona }
}

const messagesOf = (p: ChatPersonaRow) => v.parse(PersonaMessages, JSON.parse(p.messages))
const dialogOf = (row: { id: string; content: string }) => ({ id: row.id, ...v.parse(DialogInput, JSON.parse(row.content)) })

async function faceOf(db: D1Database, realm: string, p: ChatPersonaRow): Promise<PersonaFace> {
  const voice = p.voice ? v.safeParse(Voice, JSON.parse(p.voice)) : null
  return {
    id: p.id,
    name: p.name,
    bio: p.bio,
    image_url: p.image_url,
    language: p.language as PersonaFace['language'],
    is_public: p.is_public === 1,
    speech_type: p.speech_type as SpeechType,
    voice: voice?.success ? voice.output : null,
    helper: Boolean(messagesOf(p).call_helper) || (await helperDialog(db, realm, p.id)) !== null,
  }
}

function secret(c: Ctx): string {
  const s = c.env.PARTY_SECRET
  if (!s) throw apiError(503, 'unavailable', 'live.unavailable', '', null)
  return s
}

/** The party's service ticket for this session, or 401: the realm comes from the ticket, never from the caller. */
async function partyCaller(c: Ctx): Promise<{ realm: string; sessionId: string }> {
  const sessionId = pathParam(c, 'sessionId')
  const ticket = await verifyTicket(c.env.PARTY_SECRET ?? '', c.req.header('x-party-ticket') ?? null, PERSONA_CHAT_API, sessionId)
  if (!ticket) throw apiError(401, 'unauthorized', 'A valid party ticket is required.', 'x-party-ticket')
  return { realm: ticket.realm, sessionId }
}

/** The session of a party call with its persona, or why it cannot be answered. */
async function partySession(c: Ctx) {
  const { realm, sessionId } = await partyCaller(c)
  const db = c.env.DB
  const session = await findChatSession(db, realm, sessionId)
  if (!session) throw apiError(404, 'not_found', 'persona.chat.session_not_found', 'session_id', sessionId)
  const persona = await chatPersona(db, realm, session.persona_id)
  if (!persona) throw apiError(404, 'not_found', 'persona.not_found', 'persona_id', session.persona_id)
  if (persona.persona_enabled !== 1) throw apiError(403, 'disabled', 'This realm does not have persona_enabled.', 'realm', 'persona_enabled')
  return { realm, session, persona }
}

const message = (m: Omit<PersonaChatMessage, 'dialog_id' | 'answers' | 'sources' | 'engine' | 'at'> & Partial<PersonaChatMessage>): PersonaChatMessage => ({
  dialog_id: null,
  answers: [],
  sources: [],
  engine: null,
  at: Date.now(),
  ...m,
})

/** The persona's answer as a chat message (seq), by where it came from. */
function answerMessage(seq: number, a: PersonaAnswer): PersonaChatMessage {
  if (a.source === 'dialog') return message({ seq, role: 'persona', kind: 'dialog', text: dialogText(a.answers), dialog_id: a.dialog_id, answers: a.answers })
  if (a.source === 'knowledge') return message({ seq, role: 'persona', kind: 'knowledge', text: a.text, sources: a.sources, engine: a.engine })
  return message({ seq, role: 'persona', kind: 'unknown', text: a.text })
}

/** An NDJSON response written by `work` as it goes (kept alive with waitUntil until it ends). */
function ndjson(c: Ctx, work: (write: (line: PersonaStreamLine) => Promise<void>) => Promise<void>): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>()
  const writer = writable.getWriter()
  const encoder = new TextEncoder()
  const write = (line: PersonaStreamLine) => writer.write(encoder.encode(`${JSON.stringify(line)}\n`))
  const done = work(write)
    .catch(async (err: unknown) => {
      const e = aiApiError(err)
      const first = e instanceof ApiError ? e.errors[0] : null
      if (!first) console.error('[persona-chat] answer failed:', err)
      await write({ type: 'error', cause: first?.cause ?? 'unavailable', message: first?.message ?? 'persona.chat.error' }).catch(() => undefined)
    })
    .finally(() => writer.close().catch(() => undefined))
  c.executionCtx.waitUntil(done)
  return new Response(readable, { headers: { 'content-type': 'application/x-ndjson; charset=utf-8', 'cache-control': 'no-store' } })
}

export const chat = new Hono<AppEnv>()
  /** GET /personai/chat/session/{id} (party): the session, its persona's face and its stored messages. */
  .get(
    '/session/:sessionId',
    guarded('public', async (c) => {
      const { realm, session, persona } = await partySession(c)
      const state: ChatSessionState = {
        session: {
          id: session.id,
          persona_id: session.persona_id,
          visitor_nick: session.visitor_nick,
          language: session.language,
          started_at: session.started_at,
        },
        persona: await faceOf(c.env.DB, realm, persona),
        unavailable: persona.terms_accepted_at ? null : 'terms_required',
        messages: await listChatMessages(c.env.DB, realm, session.id),
      }
      return c.json(state)
    }),
  )
  /**
   * POST /personai/chat/session/{id}/answer (party): the visitor's turn `seq` and the persona's answer (`seq + 1`),
   * streamed as NDJSON (`delta` pieces, then `done` with the stored answer, or `error`). A question is answered as
   * the editor's chat test answers (dialog tree, knowledge, unknown-answer message; `streamPersonaAnswer`) over the
   * saved items; an option leads to its dialog; a call for a human answers the call_helper dialog and message and
   * marks the session. A turn already stored answers what was stored (a retried turn counts once).
   */
  .post(
    '/session/:sessionId/answer',
    guardedJson('public', ChatTurnRequest, async (c, _auth, body) => {
      const { realm, session, persona } = await partySession(c)
      if (!persona.terms_accepted_at) throw apiError(409, 'terms_required', 'persona.chat.terms_required', 'terms', null)
      const db = c.env.DB
      const stored = await chatMessage(db, realm, session.id, body.seq + 1)
      if (stored) return ndjson(c, (write) => write({ type: 'done', message: stored }))
      const messages = messagesOf(persona)
      const language = body.language ?? session.language
      let helper: { id: string; content: string } | null = null
      if (body.kind === 'helper') {
        helper = await helperDialog(db, realm, persona.id)
        if (!helper && !messages.call_helper) throw apiError(409, 'helper_unavailable', 'persona.chat.helper_unavailable', 'kind', 'helper')
      }
      const dialogs = body.kind === 'helper' ? [] : (await savedDialogs(db, realm, persona.id)).map(dialogOf)
      if (body.kind === 'option' && !dialogs.some((d) => d.id === body.dialog_id))
        throw apiError(422, 'not_found', 'persona.chat.option_not_found', 'dialog_id', body.dialog_id)
      const asked = message({ seq: body.seq, role: 'visitor', kind: body.kind, text: body.kind === 'helper' ? '' : body.text })

      return ndjson(c, async (write) => {
        let answer: PersonaChatMessage | null = null
        if (body.kind === 'helper') {
          const content = helper ? dialogOf(helper) : null
          const text = messages.call_helper || dialogText(content?.answers ?? [])
          if (text) await write({ type: 'delta', text })
          answer = message({ seq: body.seq + 1, role: 'persona', kind: 'helper_answer', text, dialog_id: helper?.id ?? null, answers: content?.answers ?? [] })
        } else if (body.kind === 'option') {
          const d = dialogs.find((x) => x.id === body.dialog_id)!
          const text = dialogText(d.answers)
          if (text) await write({ type: 'delta', text })
          answer = answerMessage(body.seq + 1, { source: 'dialog', dialog_id: d.id, question: body.text, answers: d.answers })
        } else {
          const [index, text] = await Promise.all([personaIndex(db, realm, persona.id, false), textFor(c.env, realm)])
          try {
            for await (const event of streamPersonaAnswer({
              question: body.text,
              dialogs,
              index,
              engine: text.engine,
              messages,
              language,
              persona: persona.name,
            })) {
              if (event.type === 'delta') await write({ type: 'delta', text: event.text })
              else answer = answerMessage(body.seq + 1, event.answer)
            }
          } catch (err) {
            // The engine failed (provider error, cap reached): the question stays in the transcript, unanswered.
            await runBatch(db, insertChatMessageStatements(db, realm, session.id, asked))
            throw err
          }
        }
        if (!answer) throw apiError(502, 'unavailable', 'persona.chat.error', '', null)
        await runBatch(db, [...insertChatMessageStatements(db, realm, session.id, asked), ...insertChatMessageStatements(db, realm, session.id, answer)])
        await write({ type: 'done', message: (await chatMessage(db, realm, session.id, answer.seq)) ?? answer })
      })
    }),
  )
  /** GET /personai/chat/{personaId}: what the chat page shows of the persona (its face), or why it cannot open. */
  .get(
    '/:personaId',
    guarded('public', async (c) => {
      const auth = await visitor(c)
      const { realm, persona } = await gate(c, auth)
      const face = await faceOf(c.env.DB, realm, persona)
      return c.json({ ...face, signed_in: auth !== null })
    }),
  )
  /**
   * POST /personai/chat/{personaId}/session: a ticket to the chat session's room — the client's session
   * (`session_id`) when it is this visitor's and this persona's, else a new one (greeted: the greeting and the
   * welcome dialog's answers are its first message).
   */
  .post(
    '/:personaId/session',
    guardedJson('public', ChatSessionStart, async (c, _auth, body) => {
      const auth = await visitor(c)
      const { realm, persona } = await gate(c, auth)
      const db = c.env.DB
      const nick = auth?.nick ?? ''
      const kept = body.session_id ? await findChatSession(db, realm, body.session_id) : null
      let sessionId: string
      let resumed = false
      if (kept && kept.persona_id === persona.id && kept.visitor_nick === nick && !kept.redacted_at) {
        sessionId = kept.id
        resumed = true
      } else {
        sessionId = randomToken(18)
        const at = nowIso()
        const language = body.language ?? persona.language
        const welcome = await welcomeDialog(db, realm, persona.id)
        const welcomeContent = welcome ? dialogOf(welcome) : null
        const greeting = messagesOf(persona).greeting
        const statements = [
          insertChatSessionStatement(db, { id: sessionId, realm, persona_id: persona.id, visitor_nick: nick, visitor_name: auth?.name ?? '', language, at }),
        ]
        if (greeting || welcomeContent?.answers.length) {
          const text = [greeting, dialogText(welcomeContent?.answers ?? [])].filter(Boolean).join('\n')
          statements.push(
            ...insertChatMessageStatements(
              db,
              realm,
              sessionId,
              message({ seq: 1, role: 'persona', kind: 'greeting', text, dialog_id: welcome?.id ?? null, answers: welcomeContent?.answers ?? [] }),
            ),
          )
        }
        await runBatch(db, statements)
      }
      const ticket = await signTicket(secret(c), {
        party: PARTY,
        room: sessionId,
        realm,
        nick: auth?.nick ?? `guest:${randomToken(6)}`,
        name: auth?.name ?? '',
        role: auth ? 'user' : 'guest',
      })
      return c.json({
        ticket,
        host: c.env.PARTYKIT_HOST,
        party: PARTY,
        room: sessionId,
        session_id: sessionId,
        resumed,
        persona: await faceOf(db, realm, persona),
      })
    }),
  )
