import PartySocket from 'partysocket'
import { useCallback, useEffect, useRef, useState } from 'react'
import { TicketError, ticketQuery } from '~/components/live/party-ticket'
import type { PersonaChatMessage, PersonaFace } from '#shared/schemas/persona-chat'
import {
  PERSONA_CHAT_PARTY,
  type ChatCause,
  type ChatState,
  type PersonaChatClientMessage,
  type PersonaChatServerMessage,
} from '../../../party/persona-chat-protocol'

/**
 * The browser side of the persona-chat party (party/persona-chat.ts), seed 002 §3 chat state and §4 session states:
 * fetches a ticket from `/party/ticket?party=personachat` on every (re)connection with the session id it keeps in
 * session storage (seed 002 §7: the chat session is kept there), so a dropped connection — or a reload — resumes the
 * same session; sends the last sequence seen (`since`), and the party replays what was missed.
 */
export type ChatStatus = 'loading' | 'open' | 'reconnecting' | 'signin' | 'refused' | 'error'

export interface PersonaChatView {
  status: ChatStatus
  cause: ChatCause | null
  sessionId: string | null
  persona: PersonaFace | null
  messages: PersonaChatMessage[]
  /** The answer being written, so far. */
  partial: { seq: number; text: string } | null
  state: ChatState | null
  /** The last refusal of something the visitor did. */
  notice: ChatCause | null
}

const initial: PersonaChatView = { status: 'loading', cause: null, sessionId: null, persona: null, messages: [], partial: null, state: null, notice: null }

const storageKey = (personaId: string) => `persona-chat:${personaId}`

function keptSession(personaId: string): string | null {
  try {
    return window.sessionStorage.getItem(storageKey(personaId))
  } catch {
    return null
  }
}

function keepSession(personaId: string, id: string) {
  try {
    window.sessionStorage.setItem(storageKey(personaId), id)
  } catch (err) {
    // Seed 002 §8: a failed local storage write only logs a warning (the session then lasts as long as the page).
    console.warn('persona chat: session storage unavailable', err)
  }
}

type TicketAnswer = { ticket: string; host: string; room: string; session_id: string }

async function fetchTicket(personaId: string, language: string): Promise<TicketAnswer> {
  const q = new URLSearchParams({ party: PERSONA_CHAT_PARTY, room: personaId, language })
  const kept = keptSession(personaId)
  if (kept) q.set('session_id', kept)
  const res = await fetch(`/party/ticket?${q}`, { headers: { accept: 'application/json' } })
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { errors?: { cause: string }[] } | null
    throw new TicketError(res.status, body?.errors?.[0]?.cause ?? 'unavailable')
  }
  const answer = (await res.json()) as TicketAnswer
  keepSession(personaId, answer.session_id)
  return answer
}

function merge(current: PersonaChatMessage[], incoming: PersonaChatMessage[]): PersonaChatMessage[] {
  if (!incoming.length) return current
  const bySeq = new Map(current.map((m) => [m.seq, m]))
  for (const m of incoming) bySeq.set(m.seq, m)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq)
}

const TICKET_CAUSES: Record<string, ChatCause> = { login_required: 'login_required', terms_required: 'terms_required', not_found: 'not_found' }

let counter = 0
const clientId = () => `c${Date.now().toString(36)}${(counter++).toString(36)}`

/** `onAnswer` hears each answer completed live (not the replayed ones), to speak it. */
export function usePersonaChat(personaId: string, language: string, onAnswer: (m: PersonaChatMessage) => void) {
  const [view, setView] = useState<PersonaChatView>(initial)
  const socket = useRef<PartySocket | null>(null)
  const lastSeq = useRef(0)
  const answered = useRef(onAnswer)
  answered.current = onAnswer
  const [attempt, setAttempt] = useState(0)

  useEffect(() => {
    let stopped = false
    let ws: PartySocket | null = null
    setView(initial)
    lastSeq.current = 0
    const stop = (patch: Partial<PersonaChatView>) => {
      stopped = true
      ws?.close()
      setView((s) => ({ ...s, ...patch }))
    }
    const onTicketError = (err: unknown) => {
      if (stopped) return
      if (err instanceof TicketError && (err.status === 401 || err.cause === 'login_required')) return stop({ status: 'signin', cause: 'login_required' })
      if (err instanceof TicketError && TICKET_CAUSES[err.cause]) return stop({ status: 'refused', cause: TICKET_CAUSES[err.cause] })
      stop({ status: 'error', cause: 'unavailable' })
    }
    fetchTicket(personaId, language)
      .then((first) => {
        if (stopped) return
        ws = new PartySocket({
          host: first.host,
          party: PERSONA_CHAT_PARTY,
          room: first.room,
          maxRetries: 20,
          query: ticketQuery(
            first.ticket,
            async () => (await fetchTicket(personaId, language)).ticket,
            onTicketError,
            () => (lastSeq.current > 0 ? lastSeq.current : null),
          ),
        })
        socket.current = ws
        ws.addEventListener('close', () => {
          if (!stopped) setView((s) => ({ ...s, status: s.status === 'open' ? 'reconnecting' : s.status }))
        })
        ws.addEventListener('message', (event) => {
          const msg = JSON.parse(String(event.data)) as PersonaChatServerMessage
          switch (msg.type) {
            case 'welcome':
              lastSeq.current = Math.max(lastSeq.current, msg.seq)
              return setView((s) => ({
                ...s,
                status: 'open',
                cause: null,
                sessionId: msg.session_id,
                persona: msg.persona,
                messages: merge(s.messages, msg.messages),
                partial: msg.partial,
                state: msg.state,
              }))
            case 'message':
              lastSeq.current = Math.max(lastSeq.current, msg.message.seq)
              if (msg.message.role === 'persona') answered.current(msg.message)
              return setView((s) => ({
                ...s,
                messages: merge(s.messages, [msg.message]),
                partial: s.partial?.seq === msg.message.seq ? null : s.partial,
              }))
            case 'delta':
              return setView((s) => ({
                ...s,
                partial: { seq: msg.seq, text: (s.partial?.seq === msg.seq ? s.partial.text : '') + msg.text },
              }))
            case 'state':
              return setView((s) => ({ ...s, state: msg.state, partial: msg.state.answering ? s.partial : null }))
            case 'ack':
              return
            case 'error':
              return setView((s) => {
                // Before the welcome an error is the door's answer: the party closes; do not knock again.
                if (s.status === 'loading' || s.status === 'reconnecting') {
                  stopped = true
                  ws?.close()
                  return { ...s, status: msg.cause === 'login_required' ? 'signin' : 'refused', cause: msg.cause }
                }
                return { ...s, notice: msg.cause }
              })
          }
        })
      })
      .catch(onTicketError)
    return () => {
      stopped = true
      ws?.close()
      socket.current = null
    }
    // The language is sent on the open connection (below); a new connection is not needed for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [personaId, attempt])

  const send = useCallback((message: PersonaChatClientMessage) => {
    setView((s) => ({ ...s, notice: null }))
    socket.current?.send(JSON.stringify(message))
  }, [])

  useEffect(() => {
    if (view.status === 'open' && view.state && view.state.language !== language) send({ type: 'language', language: language as 'pt-BR' })
  }, [language, view.status, view.state, send])

  return {
    view,
    ask: (text: string) => send({ type: 'ask', id: clientId(), text }),
    choose: (text: string, dialogId: string) => send({ type: 'option', id: clientId(), text, dialog_id: dialogId }),
    callHelper: () => send({ type: 'helper', id: clientId() }),
    retry: () => setAttempt((n) => n + 1),
  }
}
