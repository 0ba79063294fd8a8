import * as v from 'valibot'
import type { SourceRef, Voice } from './ai'
import { type DialogAnswer, PERSONA_LANGUAGES, type SpeechType } from './persona'
import { Id } from './tms/common'

/**
 * The public persona chat (issue 16 "The public chat"; seed 002 §2 `personai/chat/{personaId}`, §3 chat state, §4
 * chat session states, §8): what the realm API, the persona-chat party and the chat page share.
 */

/** A chat session's id: the client keeps it (session storage) to resume the same session; unguessable. */
export const ChatSessionId = v.pipe(v.string('validation.required'), v.regex(/^[A-Za-z0-9_-]{16,64}$/, 'validation.id'))

/** POST /personai/chat/{personaId}/session: start a session, or resume the client's (`session_id`). */
export const ChatSessionStart = v.object({
  session_id: v.optional(ChatSessionId),
  language: v.optional(v.picklist(PERSONA_LANGUAGES, 'validation.picklist')),
})

/** The most a visitor's question holds (as the editor's chat test). */
export const CHAT_QUESTION_MAX = 500

const Question = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.minLength(1, 'validation.required'),
  v.maxLength(CHAT_QUESTION_MAX, 'validation.max_length'),
)

/**
 * POST /personai/chat/session/{sessionId}/answer (the party, with its service ticket): the visitor's turn `seq` —
 * a question, an option of a dialog answer chosen (it leads to its dialog), or a call for a human — answered as an
 * NDJSON stream of PersonaStreamLine; the turn and its answer are stored in the transcript (once per seq).
 */
export const ChatTurnRequest = v.variant('kind', [
  v.object({
    kind: v.literal('question'),
    seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
    text: Question,
    language: v.optional(v.picklist(PERSONA_LANGUAGES)),
  }),
  v.object({
    kind: v.literal('option'),
    seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
    text: Question,
    dialog_id: Id,
    language: v.optional(v.picklist(PERSONA_LANGUAGES)),
  }),
  v.object({ kind: v.literal('helper'), seq: v.pipe(v.number(), v.integer(), v.minValue(1)), language: v.optional(v.picklist(PERSONA_LANGUAGES)) }),
])
export type ChatTurnRequest = v.InferOutput<typeof ChatTurnRequest>

/** What a message of the chat is: the visitor's turns, and the persona's answers by where they came from. */
export const CHAT_KINDS = ['greeting', 'question', 'option', 'helper', 'dialog', 'knowledge', 'unknown', 'helper_answer'] as const
export type ChatKind = (typeof CHAT_KINDS)[number]

/** One message of a chat session (live in the party, stored in the transcript). */
export interface PersonaChatMessage {
  seq: number
  role: 'visitor' | 'persona'
  kind: ChatKind
  text: string
  /** The dialog the answer came from (dialog answers, the greeting's welcome dialog, a helper's call_helper dialog). */
  dialog_id: string | null
  /** The dialog's answers (links, media, options leading to other dialogs). */
  answers: DialogAnswer[]
  /** The knowledge passages the answer quotes or was grounded in. */
  sources: SourceRef[]
  /** The text engine of a knowledge answer. */
  engine: string | null
  /** Server time, epoch ms. */
  at: number
}

/** A line of the answer stream: pieces of the answer's text, then the stored answer (or why it failed). */
export type PersonaStreamLine =
  { type: 'delta'; text: string } | { type: 'done'; message: PersonaChatMessage } | { type: 'error'; cause: string; message: string }

/** What the chat shows of a persona (no staff data): its face, greeting and whether a human can be called. */
export interface PersonaFace {
  id: string
  name: string
  bio: string
  image_url: string
  language: (typeof PERSONA_LANGUAGES)[number]
  is_public: boolean
  speech_type: SpeechType
  voice: Voice | null
  /** Whether the persona can hand the visitor to a human (a call_helper dialog or message is configured). */
  helper: boolean
}

/** The party's view of a session (GET /personai/chat/session/{id}, service ticket). */
export interface ChatSessionState {
  session: { id: string; persona_id: string; visitor_nick: string; language: string; started_at: string }
  persona: PersonaFace
  /** Why the persona cannot chat now (disabled persona chat, terms withdrawn…), or null. */
  unavailable: 'terms_required' | null
  messages: PersonaChatMessage[]
}

/** A session in the transcripts list (staff). */
export interface ChatTranscriptSession {
  id: string
  persona_id: string
  visitor_nick: string
  visitor_name: string
  language: string
  started_at: string
  last_at: string
  message_count: number
  helper_requested_at: string | null
  redacted_at: string | null
}

/** Days a chat session's visitor data is kept by default (the realm's `persona_chat_retention_days`). */
export const CHAT_RETENTION_DEFAULT_DAYS = 90

/** PUT /personai/retention: days a chat session keeps its visitor's personal data after its last message. */
export const ChatRetentionUpdate = v.object({
  days: v.pipe(
    v.number('validation.integer'),
    v.integer('validation.integer'),
    v.minValue(0, 'validation.min_value'),
    v.maxValue(3650, 'validation.max_value'),
  ),
})
