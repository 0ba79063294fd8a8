/**
 * The student's side of a task (issue 17): the signed start receipt, the task as a student sees it (no answer keys,
 * options shuffled per student), the check and automatic scoring of answers, and the time window of a delivery.
 */
import { QUESTION_LIMITS } from '#shared/schemas/tms/constants'
import { validScore } from '#shared/schemas/tms/correction'
import { sameAnswer, wordsOf } from '#shared/schemas/tms/phrase'
import type { Question } from '#shared/schemas/tms/question'
import { INFORMATIVE_TYPES, questionType } from '#shared/schemas/tms/question-types'
import type { FileKind } from '#shared/schemas/file'
import type { AnswerValue } from './answer-schemas'
import { base64UrlToBytes, bytesToBase64Url, hmacSign, hmacVerify } from './crypto'

// ---------------------------------------------------------------------------------------------------------------
// Start receipt

/** What the server signs when a student opens (or downloads) a task: the open time judges timed and offline work. */
export interface Receipt {
  realm: string
  task: string
  nick: string
  room: string | null
  /** When the student first opened the task (ms since the epoch, the server's clock). */
  opened: number
}

const enc = new TextEncoder()
const dec = new TextDecoder()

export async function signReceipt(secret: string, r: Receipt): Promise<string> {
  const body = bytesToBase64Url(enc.encode(JSON.stringify([r.realm, r.task, r.nick, r.room, r.opened])))
  return `${body}.${await hmacSign(secret, `answer-receipt.${body}`)}`
}

/** The receipt's claims when `secret` signed it, else null. */
export async function verifyReceipt(secret: string, receipt: string): Promise<Receipt | null> {
  const [body, signature, ...rest] = receipt.split('.')
  if (!body || !signature || rest.length || !(await hmacVerify(secret, `answer-receipt.${body}`, signature))) return null
  try {
    const [realm, task, nick, room, opened] = JSON.parse(dec.decode(base64UrlToBytes(body))) as [string, string, string, string | null, number]
    return { realm, task, nick, room, opened }
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The time window

/**
 * Tolerance of the window judgments (ms): the open request's latency and the device timer's granularity. An offline
 * device's elapsed time is measured from the server's signed open time, so no clock difference enters it.
 */
export const WINDOW_TOLERANCE_MS = 30_000

export type WindowCause = 'deadline_ended' | 'max_time_reached' | 'min_time_not_reached' | 'elapsed_invalid'
export type WindowJudgment =
  { ok: true; finishedAt: number; elapsedMs: number; delivery: 'on_time' | 'delayed' } | { ok: false; cause: WindowCause; field: string; value: unknown }

export interface WindowInput {
  now: number
  openedAt: number
  expireAt: number
  /** Compulsory-correction date: no late (offline) answer arrives after it. */
  correctAt: number | null
  minMinutes: number
  maxMinutes: number
  /** Offline work: the time the device measured from opening to finishing. Absent: online, the server's clock. */
  offlineElapsedMs?: number
  /** A draft: the minimum time does not apply, and a draft never arrives late. */
  draft?: boolean
}

/**
 * Whether an answer falls within its task's window. Online, the answer finished now. Offline, it finished at the
 * signed open time plus the device's elapsed time, which may not exceed the real time since the open (plus the
 * tolerance): going offline cannot stretch the time. The answer must have finished before the task expired and
 * within the maximum execution time; a delivery must have taken the minimum time. An offline answer finished in time
 * that arrives after the task expired is accepted as delayed (until the compulsory-correction date).
 */
export function judgeWindow(w: WindowInput): WindowJudgment {
  const tol = WINDOW_TOLERANCE_MS
  const realElapsed = Math.max(0, w.now - w.openedAt)
  const offline = w.offlineElapsedMs !== undefined
  const elapsed = offline ? w.offlineElapsedMs! : realElapsed
  if (offline && elapsed > realElapsed + tol) return { ok: false, cause: 'elapsed_invalid', field: 'offline.elapsed_ms', value: elapsed }
  const finishedAt = w.openedAt + elapsed
  if (finishedAt > w.expireAt + tol) return { ok: false, cause: 'deadline_ended', field: 'task_id', value: new Date(w.expireAt).toISOString() }
  if (w.maxMinutes > 0 && elapsed > w.maxMinutes * 60_000 + tol) return { ok: false, cause: 'max_time_reached', field: 'task_id', value: w.maxMinutes }
  if (!w.draft && w.minMinutes > 0 && elapsed < w.minMinutes * 60_000)
    return { ok: false, cause: 'min_time_not_reached', field: 'task_id', value: w.minMinutes }
  const late = w.now > w.expireAt + tol
  if (late && (!offline || w.draft || (w.correctAt !== null && w.now > w.correctAt))) {
    return { ok: false, cause: 'deadline_ended', field: 'task_id', value: new Date(w.expireAt).toISOString() }
  }
  return { ok: true, finishedAt, elapsedMs: elapsed, delivery: late ? 'delayed' : 'on_time' }
}

// ---------------------------------------------------------------------------------------------------------------
// The task as a student sees it

/** A deterministic pseudo-random sequence from a text (FNV-1a seed, xorshift32). */
function seeded(text: string): () => number {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  let x = h >>> 0 || 1
  return () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x / 4294967296
  }
}

/** The items in an order fixed per seed (the same student sees the same order every time they open the task). */
export function shuffled<T>(items: readonly T[], seed: string): T[] {
  const out = [...items]
  const next = seeded(seed)
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

/**
 * A question without what would give its answer away: no correct flags, no fill-letters answer, the gaps of a
 * fill-words sentence empty and their words in a bank, the cloud's and the order's words mixed, no resolution
 * comment. Choices are shuffled when the question says so; word banks always (in order they are the answer).
 */
export function studentQuestion(q: Question, seed: string): Record<string, unknown> {
  const base = {
    id: q.id,
    type: q.type,
    statement: q.statement,
    score: q.score,
    required: q.required,
    media_type: q.media_type,
    media_url: q.media_url,
  }
  const s = `${seed}/${q.id}`
  switch (q.type) {
    case 'single':
    case 'multi':
    case 'true_false': {
      const options = q.options.map((o) => ({ id: o.id, statement: o.statement, media_type: o.media_type, media_url: o.media_url }))
      return { ...base, options: q.shuffle ? shuffled(options, s) : options }
    }
    case 'fill_letters':
      return { ...base, options: { question: q.options.question, length: q.options.answer.replace(/\s/g, '').length } }
    case 'fill_words': {
      const gaps = q.options.phrase.filter((i) => i.type === 'select').map((i) => i.value)
      return {
        ...base,
        options: {
          mode: q.options.mode,
          items: q.options.phrase.map((i) => (i.type === 'text' ? { type: 'text', value: i.value } : { type: 'gap' })),
          words: shuffled([...gaps, ...q.options.incorrect], s),
        },
      }
    }
    case 'cloud':
      return { ...base, options: { words: shuffled(q.options.ids, s) } }
    case 'order_sentences':
      return { ...base, options: { sentences: shuffled([...q.options.sentences, ...q.options.incorrect], s) } }
    case 'text':
    case 'text_ai':
      return { ...base, options: { min_text_count: q.options.min_text_count, max_text_count: q.options.max_text_count } }
    case 'essay':
    case 'media':
    case 'game':
      return { ...base, options: q.options }
    default:
      return { ...base, options: {} }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Answers: shape and automatic score

/** Whether a question takes part in answering and scoring (informative types do not). */
export const answerable = (q: Question) => !INFORMATIVE_TYPES.includes(q.type)

const filled = (xs: readonly string[] | undefined) => Boolean(xs?.length && xs.some((x) => x.trim()))

/**
 * Whether an answer fits its question: the right field for the type, and choices among the question's options.
 * Returns the problem's message key, or null.
 */
export function answerProblem(q: Question, a: AnswerValue): string | null {
  switch (q.type) {
    case 'info':
    case 'section':
      return 'answer.error.not_answerable'
    case 'single':
    case 'true_false':
      return a.option === undefined || q.options.some((o) => o.id === a.option) ? null : 'answer.error.unknown_option'
    case 'multi': {
      const ids = new Set(q.options.map((o) => o.id))
      if (!(a.options ?? []).every((id) => ids.has(id))) return 'answer.error.unknown_option'
      return new Set(a.options).size === (a.options ?? []).length ? null : 'answer.error.duplicate_option'
    }
    case 'fill_words': {
      const gaps = q.options.phrase.filter((i) => i.type === 'select').length
      return a.words === undefined || a.words.length === gaps ? null : 'answer.error.gap_count'
    }
    default:
      return null
  }
}

/** Words of a written answer, or its non-empty lines when the essay counts lines. */
export function textCount(text: string, unit: 'word' | 'line' = 'word'): number {
  return unit === 'line' ? text.split(/\r?\n/).filter((l) => l.trim()).length : text.split(/\s+/).filter(Boolean).length
}

/**
 * The length rule of a written answer (text and text_ai: words between the question's minimum and maximum text
 * counts; essay: words or lines between its minimum and maximum word counts) of an answer with text: `too_long`
 * applies to drafts too, `too_short` only to a delivery (a draft is unfinished). An essay sent as photos only is not
 * counted (its transcription will be).
 */
export function lengthProblem(q: Question, a: AnswerValue | undefined, delivering: boolean): 'text_too_short' | 'text_too_long' | null {
  const text = a?.text?.trim()
  if (!text) return null
  let count: number, min: number, max: number
  if (q.type === 'text' || q.type === 'text_ai') [count, min, max] = [textCount(text), q.options.min_text_count, q.options.max_text_count]
  else if (q.type === 'essay') [count, min, max] = [textCount(text, q.options.text_count_unit), q.options.min_word_count, q.options.max_word_count]
  else return null
  if (max > 0 && count > max) return 'text_too_long'
  if (delivering && count < min) return 'text_too_short'
  return null
}

/** Whether the student answered the question (what "at least one answered question" counts). */
export function isAnswered(q: Question, a: AnswerValue | undefined): boolean {
  if (!a) return false
  switch (q.type) {
    case 'single':
    case 'true_false':
      return a.option !== undefined
    case 'multi':
      return Boolean(a.options?.length)
    case 'fill_words':
    case 'cloud':
    case 'order_sentences':
      return filled(a.words)
    case 'media':
      return Boolean(a.files?.length)
    case 'essay':
      return Boolean(a.text?.trim()) || Boolean(a.files?.length)
    case 'info':
    case 'section':
      return false
    default:
      return Boolean(a.text?.trim())
  }
}

/** A score in thousandths (seed 001 §9: scores are compared with multiplier 1000). */
export const thousandths = (x: number) => Math.round(x * QUESTION_LIMITS.scoreMultiplier) / QUESTION_LIMITS.scoreMultiplier

/**
 * The automatic score of an objective question from the model's answer key, or null for the types a teacher (or
 * the AI, or the game) scores. Everything right earns the score. A multi question with partial score earns the
 * share of right choices less the share of wrong ones (never below 0): (right − wrong) ÷ correct options.
 */
export function autoScore(q: Question, a: AnswerValue | undefined): number | null {
  if (questionType(q.type).scoring !== 'auto') return null
  const score = q.score
  if (!a) return 0
  switch (q.type) {
    case 'single':
    case 'true_false':
      return q.options.find((o) => o.id === a.option)?.answer ? score : 0
    case 'multi': {
      const correct = new Set(q.options.filter((o) => o.answer).map((o) => o.id))
      const chosen = new Set(a.options ?? [])
      const right = [...chosen].filter((id) => correct.has(id)).length
      const wrong = chosen.size - right
      if (right === correct.size && wrong === 0) return score
      if (!q.partial_score || correct.size === 0) return 0
      return thousandths(Math.max(0, ((right - wrong) / correct.size) * score))
    }
    case 'fill_letters':
      return a.text !== undefined && sameAnswer(a.text.replace(/\s/g, ''), q.options.answer.replace(/\s/g, '')) ? score : 0
    case 'fill_words': {
      const gaps = q.options.phrase.filter((i) => i.type === 'select').map((i) => i.value)
      const words = a.words ?? []
      return words.length === gaps.length && gaps.every((g, i) => sameAnswer(g, words[i])) ? score : 0
    }
    case 'cloud': {
      const expected = wordsOf(q.options.phrase)
      const words = (a.words ?? []).map((w) => w.trim()).filter(Boolean)
      return words.length === expected.length && expected.every((w, i) => sameAnswer(w, words[i])) ? score : 0
    }
    case 'order_sentences': {
      const words = a.words ?? []
      return words.length === q.options.sentences.length && q.options.sentences.every((w, i) => sameAnswer(w, words[i])) ? score : 0
    }
    default:
      return 0
  }
}

/** The automatic scores of a set of answers (question id → score; objective questions only) and the task's maximum. */
export function scoreAnswers(questions: Question[], answers: Record<string, AnswerValue>): { auto: Record<string, number>; max: number } {
  const auto: Record<string, number> = {}
  let max = 0
  for (const q of questions) {
    if (!answerable(q) || !q.id) continue
    max += q.score
    const s = autoScore(q, answers[q.id])
    if (s !== null) auto[q.id] = s
  }
  return { auto, max: thousandths(max) }
}

/** Whether a teacher's score is valid for the question: not negative, not above its score, on the score step. */
export function validCorrectionScore(q: Question, score: number): boolean {
  return validScore(q.score, score)
}

// ---------------------------------------------------------------------------------------------------------------
// CSV

const cell = (x: unknown) => {
  const s = x === null || x === undefined ? '' : String(x)
  // A leading =, +, - or @ would be a formula in a spreadsheet: quoted with an apostrophe.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s
  return /[",\r\n;]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** CSV text (comma separated, CRLF lines, a BOM so spreadsheets read UTF-8). */
export function csvText(rows: unknown[][]): string {
  return `\uFEFF${rows.map((r) => r.map(cell).join(',')).join('\r\n')}\r\n`
}

// ---------------------------------------------------------------------------------------------------------------
// Answer files: the student's own uploads of the realm

/**
 * The file a reference in an answer's `files` names: its id, or its address (`…/{realm}/{yyyy}/{mm}/{id}.{ext}`,
 * the upload's `cdn_full_url`), whose last segment without the extension is the id. Null when it names none.
 */
export function fileIdOf(ref: string): string | null {
  const last = ref.split(/[?#]/)[0].split('/').pop() ?? ''
  const id = last.replace(/\.[A-Za-z0-9]{1,5}$/, '')
  return /^[A-Za-z0-9_-]{8,64}$/.test(id) ? id : null
}

/** The kinds of file a question's answer takes: a media question's `accept`, images for an essay's pages, none otherwise. */
export function fileKindsOf(q: Question): readonly FileKind[] {
  return q.type === 'media' ? q.options.accept : q.type === 'essay' ? ['image'] : []
}

/**
 * The smallest photo of an essay page the student may upload (pixels, each side): smaller, the handwriting cannot be
 * read by the teacher nor transcribed (seed 001 §8 "file type and dimension errors").
 */
export const ESSAY_PAGE_MIN_PX = 200

/** What an answer file is checked against: the stored upload's row, as `worker/db/files.ts` reads it. */
export interface AnswerFileRow {
  id: string
  key: string
  kind: string
  uploaded_by: string
}

export type AnswerFileCause = 'file_not_found' | 'file_not_own' | 'file_kind'

/**
 * Why a file reference cannot be part of the student's answer to the question, or null: it must be an upload of
 * the realm (unknown, expired and other realms' files are "not found"), uploaded by the student themselves, and of
 * a kind the question takes (a media question's `accept`; an essay's pages are photos).
 */
export function answerFileProblem(q: Question, ref: string, row: AnswerFileRow | undefined, nick: string): AnswerFileCause | null {
  if (!row || (ref !== row.id && !ref.split(/[?#]/)[0].endsWith(`/${row.key}`))) return 'file_not_found'
  if (row.uploaded_by !== nick) return 'file_not_own'
  return fileKindsOf(q).includes(row.kind as FileKind) ? null : 'file_kind'
}
