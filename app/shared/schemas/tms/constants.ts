/**
 * Task-authoring constants (seed 001 §3, §5, §9). Values the specification does not show are decisions recorded in
 * the README ("Task authoring decisions").
 */
/** The question types and what each allows are declared once, in question-types.ts. */
export type { QuestionType } from './question-types'

/** Media attached to a question or option; these need a URL. */
export const MEDIA_TYPES = ['img', 'video', 'link', 'pdf', 'audio'] as const
/** What an `info` block shows: text, or a link, image, video or PDF. */
export const INFO_KINDS = ['text', 'link', 'img', 'video', 'pdf'] as const
/** What a student may send as the answer to a `media` question. */
export const ANSWER_MEDIA = ['image', 'audio', 'video', 'document'] as const
/** Content languages (seed 001 §1). */
export const CONTENT_LANGUAGES = ['pt-BR', 'pt-PT', 'en-US', 'es-ES', 'fr-FR', 'it-IT', 'de-DE'] as const
export const TEXT_COUNT_UNITS = ['word', 'line'] as const
export const FILL_WORDS_MODES = ['select', 'drag_and_drop'] as const

export interface QuestionLimits {
  statementMin: number
  optionStatementMin: number
  mediaLinkMin: number
  scoreMin: number
  scoreMax: number
  scoreStep: number
  /** Scores are compared in thousandths (seed 001 §9: multiplier 1000). */
  scoreMultiplier: number
  choiceOptionsMin: number
  textCountMin: number
  textCountMax: number
  essayWordMin: number
  essayMaxWordsAtLeast: number
  essayWordMax: number
  fillWordsGapWords: number
  fillWordsOptionsMin: number
  orderSentencesMin: number
  cloudIdsMin: number
}

export const QUESTION_LIMITS: QuestionLimits = {
  statementMin: 3,
  optionStatementMin: 1,
  mediaLinkMin: 3,
  scoreMin: 0,
  scoreMax: 100,
  scoreStep: 0.01,
  scoreMultiplier: 1000,
  choiceOptionsMin: 2,
  textCountMin: 1,
  textCountMax: 10_000,
  essayWordMin: 1,
  essayMaxWordsAtLeast: 50,
  essayWordMax: 5_000,
  fillWordsGapWords: 5,
  fillWordsOptionsMin: 2,
  orderSentencesMin: 2,
  cloudIdsMin: 2,
}

/** Grade levels keyed 1 to 16 (seed 001 §3). */
export const GRADES = Array.from({ length: 16 }, (_, i) => i + 1)
export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const
export const MODEL_KINDS = ['activity', 'exam', 'essay'] as const
export const MODEL_FLAGS = ['audio_question', 'essay_transcription', 'verify_answers', 'disable_answer_review', 'auto_draft'] as const

/** Essay error categories and their colours (seed 001 §3, seed 000 §9 skill category colours). */
export const ESSAY_ERROR_CATEGORIES = {
  ORTHOGRAPHY: '#e53935',
  MORPHOLOGY: '#fb8c00',
  SYNTAX: '#8e24aa',
  SEMANTICS: '#1e88e5',
  LANGUAGE: '#00897b',
  OTHERS: '#6d4c41',
  NOTE: '#fdd835',
} as const

/** Publication targets (seed 001 §3): whole rooms (default `all`), chosen room members, or room groups. */
export const PUBLICATION_TYPES = ['all', 'members', 'group'] as const
export type PublicationType = (typeof PUBLICATION_TYPES)[number]
export const TASK_STATUSES = ['expired', 'scheduled', 'paused', 'published'] as const
export type TaskStatus = (typeof TASK_STATUSES)[number]

/** Realm task limits that a parallel branch adds as realm columns; these defaults apply until then. */
export const TMS_DEFAULT_DEADLINE_DAYS = 3
export const TMS_MAX_SCHEDULE_DAYS = 365
/** A publication time this far in the past still counts as "now" (the form's clock and the server's differ). */
export const PUBLISH_CLOCK_TOLERANCE_MS = 5 * 60_000
