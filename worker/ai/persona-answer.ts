import type { SourceRef, TextProvider } from '#shared/schemas/ai'
import type { DialogAnswer, DialogInput, PersonaMessages } from '#shared/schemas/persona'
import { knowledgeCorpus, knowledgeVersion } from '../db/personas'
import { Bm25Index, bestPassages, tokenize } from './retrieval'
import type { TextEngine } from './types'

/**
 * How a persona answers a question (issue 16 "the public chat": dialog tree first, then knowledge, then the
 * unknown-answer message), shared by the editor's chat test and the public chat. Every answer says where it came
 * from: the dialog, or the knowledge passages it quotes or was grounded in.
 */

/** Share of a stored question's words the asked question must hold for the dialog to answer it. */
export const QUESTION_MATCH = 0.75

export type PersonaAnswer =
  | { source: 'dialog'; dialog_id: string; question: string; answers: DialogAnswer[] }
  | { source: 'knowledge'; text: string; sources: SourceRef[]; engine: TextProvider }
  | { source: 'unknown'; text: string }

/**
 * The conversation dialog whose way of asking best matches `question`: the share of the stored question's words
 * (tokenized as retrieval does: accents, case, stopwords and plurals aside) found in the asked one, at least
 * QUESTION_MATCH; ties go to the dialog first in order.
 */
export function matchDialog(question: string, dialogs: ({ id: string } & DialogInput)[]): { id: string; question: string; score: number } | null {
  const asked = new Set(tokenize(question))
  let best: { id: string; question: string; score: number } | null = null
  for (const d of dialogs) {
    if (d.type !== 'conversation') continue
    for (const q of d.questions) {
      const words = [...new Set(tokenize(q))]
      if (!words.length) continue
      const score = words.filter((w) => asked.has(w)).length / words.length
      if (score >= QUESTION_MATCH && (!best || score > best.score)) best = { id: d.id, question: q, score }
    }
  }
  return best
}

/** Indexes kept per isolate (a persona's corpus is read and tokenized once, not per question). */
const INDEXES_KEPT = 8
const indexes = new Map<string, { version: string; index: Bm25Index }>()

/**
 * The BM25 index of a persona's knowledge (`drafts`: as the editor sees it), kept in the isolate while the persona's
 * knowledge version stays the same (one small query a question instead of reading and tokenizing every chunk).
 */
export async function personaIndex(db: D1Database, realm: string, personaId: string, drafts: boolean): Promise<Bm25Index> {
  const key = `${realm}\u0000${personaId}\u0000${drafts ? 1 : 0}`
  const version = await knowledgeVersion(db, realm, personaId)
  const kept = indexes.get(key)
  indexes.delete(key)
  const entry = kept && kept.version === version ? kept : { version, index: new Bm25Index(await knowledgeCorpus(db, realm, personaId, drafts)) }
  indexes.set(key, entry)
  for (const old of indexes.keys()) {
    if (indexes.size <= INDEXES_KEPT) break
    indexes.delete(old)
  }
  return entry.index
}

/** Passages quoted or given to a model per answer. */
const PASSAGES = 2

export interface PersonaQuestion {
  question: string
  dialogs: ({ id: string } & DialogInput)[]
  index: Bm25Index
  engine: TextEngine
  messages: PersonaMessages
  language: string
  persona: string
}

/** What a streamed answer yields: pieces of its text as they come, then the whole answer once. */
export type PersonaAnswerEvent = { type: 'delta'; text: string } | { type: 'answer'; answer: PersonaAnswer }

/** The text a dialog's answers speak (its text answers, in order). */
export const dialogText = (answers: DialogAnswer[]) =>
  answers
    .filter((a) => a.type === 'text' && a.text)
    .map((a) => a.text)
    .join('\n')

/**
 * The answer as it is made (the public chat streams it): a dialog's text at once, a knowledge answer piece by piece
 * as the engine writes it, the unknown-answer message at once; always ends with the whole answer.
 */
export async function* streamPersonaAnswer(input: PersonaQuestion, signal?: AbortSignal): AsyncGenerator<PersonaAnswerEvent> {
  const matched = matchDialog(input.question, input.dialogs)
  if (matched) {
    const dialog = input.dialogs.find((d) => d.id === matched.id)!
    const text = dialogText(dialog.answers)
    if (text) yield { type: 'delta', text }
    yield { type: 'answer', answer: { source: 'dialog', dialog_id: dialog.id, question: matched.question, answers: dialog.answers } }
    return
  }
  const passages = bestPassages(input.question, input.index.search(input.question), PASSAGES)
  if (passages.length) {
    for await (const event of input.engine.stream(
      {
        system: `You are ${input.persona}. Answer in ${input.language}.`,
        messages: [{ role: 'user', content: input.question }],
        sources: passages,
        language: input.language,
      },
      signal,
    )) {
      if (event.type === 'delta') yield { type: 'delta', text: event.text }
      else {
        yield { type: 'answer', answer: { source: 'knowledge', text: event.text, sources: event.sources, engine: event.engine } }
        return
      }
    }
  }
  const text = input.messages.unknown_answer
  if (text) yield { type: 'delta', text }
  yield { type: 'answer', answer: { source: 'unknown', text } }
}

/** The whole answer at once (the editor's chat test): the streamed answer, read to its end. */
export async function answerPersona(input: PersonaQuestion): Promise<PersonaAnswer> {
  let answer: PersonaAnswer | null = null
  for await (const event of streamPersonaAnswer(input)) if (event.type === 'answer') answer = event.answer
  return answer ?? { source: 'unknown', text: input.messages.unknown_answer }
}
