import * as v from 'valibot'
import { PERSONA_LANGUAGES } from '#shared/schemas/persona'
import { CHAT_QUESTION_MAX, type PersonaChatMessage, type PersonaFace } from '#shared/schemas/persona-chat'

/**
 * Wire protocol of the persona-chat party (issue 16 "The public chat"), imported by the party and by its clients
 * (the chat page, the tests). Every client message is validated with these schemas; a refused one is answered with
 * an `error` event naming its cause, never dropped.
 *
 * Connecting: `wss://<host>/parties/personachat/<sessionId>?ticket=<ticket>&since=<seq>` — the ticket from
 * `POST /api/personai/chat/{personaId}/session` (through the console's `/party/ticket?party=personachat`); `since`
 * is the last message sequence the client saw (omit on a first join): the welcome carries every message after it,
 * and the answer being written when the client dropped, so far.
 */

/** The party's name in partykit.json (a party name is a JavaScript identifier there: no hyphen). */
export const PERSONA_CHAT_PARTY = 'personachat'

const ClientId = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[\w-]+$/, 'A client id is letters, digits, _ and -.'))
const Text = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'A question needs text.'),
  v.maxLength(CHAT_QUESTION_MAX, `A question holds at most ${CHAT_QUESTION_MAX} characters.`),
)

export const PersonaChatClientMessage = v.variant('type', [
  /** A typed or spoken question; `id` is the client's, a resend is answered with the same ack. */
  v.object({ type: v.literal('ask'), id: ClientId, text: Text }),
  /** An option of a dialog answer chosen: `text` is the option's statement, `dialog_id` the dialog it leads to. */
  v.object({ type: v.literal('option'), id: ClientId, text: Text, dialog_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) }),
  /** The visitor asks for a human (call_helper). */
  v.object({ type: v.literal('helper'), id: ClientId }),
  /** The language the visitor chats in (the persona answers in it). */
  v.object({ type: v.literal('language'), language: v.picklist(PERSONA_LANGUAGES) }),
])
export type PersonaChatClientMessage = v.InferOutput<typeof PersonaChatClientMessage>

/** The chat state of seed 002 §3 as the party holds it (the client adds its own `talking`: the voice speaking). */
export interface ChatState {
  /** Whether the visitor has asked anything yet. */
  started: boolean
  /** Whether the persona is writing an answer now. */
  answering: boolean
  /** Whether the visitor's input is off (an answer on its way, or the persona unavailable). */
  disabled: boolean
  language: string
}

/** Why something was refused (the `cause` of an `error` event; the clients translate `persona.chat.cause.<cause>`). */
export const CHAT_CAUSES = [
  'invalid_message',
  'not_found',
  'unavailable',
  'login_required',
  'terms_required',
  'forbidden',
  'busy',
  'helper_unavailable',
  'answer_failed',
] as const
export type ChatCause = (typeof CHAT_CAUSES)[number]

export type PersonaChatServerMessage =
  | {
      type: 'welcome'
      session_id: string
      persona: PersonaFace
      /** Every message after the client's `since` (all on a first join). */
      messages: PersonaChatMessage[]
      /** The answer being written (its sequence and text so far), when one is. */
      partial: { seq: number; text: string } | null
      seq: number
      state: ChatState
      /** Server time, epoch ms. */
      now: number
    }
  | { type: 'message'; message: PersonaChatMessage }
  | { type: 'ack'; id: string; seq: number }
  /** A piece of the answer `seq` as it is written. */
  | { type: 'delta'; seq: number; text: string }
  | { type: 'state'; state: ChatState }
  | { type: 'error'; cause: ChatCause; message: string; ref?: string }

/** Close code after an `error` event refusing the connection. */
export const CLOSE_REFUSED = 4003
