import type { TFunction } from 'i18next'
import { INFORMATIVE_TYPES, questionType, type QuestionType } from '#shared/schemas/tms/question-types'
import { MEDIA_TYPES } from '#shared/schemas/tms/constants'

/** A question as the editor holds it: the seed's fields (§3), options shaped by type. */
export interface QuestionDraft {
  id: string
  type: QuestionType
  statement: string
  score: number
  required: boolean
  shuffle: boolean
  partial_score: boolean
  categories: string[]
  media_type: string
  media_url: string
  comment: string
  extra_fields: Record<string, unknown>
  bank_id?: string
  options: unknown
}

export interface ChoiceDraft {
  id?: string
  statement: string
  answer: boolean
  media_type: string
  media_url: string
}

/** A short random id for a new question (ids only need to be unique inside a model). */
export const draftId = () => `q${Math.random().toString(36).slice(2, 10)}`

/** The options a new question of this type starts with (its declaration's, in the editor's language). */
export function defaultOptions(type: QuestionType, t: TFunction): unknown {
  return questionType(type).initial((key) => t(key))
}

/** A new question's score: 0 where the type is not scored by points (informative, corrected by AI), else 1. */
const initialScore = (type: QuestionType) => (['none', 'ai'].includes(questionType(type).scoring) ? 0 : 1)

export function newQuestion(type: QuestionType, t: TFunction): QuestionDraft {
  const informative = INFORMATIVE_TYPES.includes(type)
  return {
    id: draftId(),
    type,
    statement: '',
    score: initialScore(type),
    required: !informative,
    shuffle: false,
    partial_score: false,
    categories: [],
    media_type: questionType(type).media?.initial ?? '',
    media_url: '',
    comment: '',
    extra_fields: {},
    options: defaultOptions(type, t),
  }
}

function ownMedia(type: QuestionType, current: string): string {
  const media = questionType(type).media
  if (media) return current || media.initial
  return (MEDIA_TYPES as readonly string[]).includes(current) ? current : ''
}

/**
 * The question under a new type (seed 001 §4): the options are discarded, the rest kept where the new type allows
 * it (informative types lose score, requirement and categories; only some types shuffle or score partly).
 */
export function changeType(q: QuestionDraft, type: QuestionType, t: TFunction): QuestionDraft {
  const fresh = newQuestion(type, t)
  const informative = INFORMATIVE_TYPES.includes(type)
  return {
    ...q,
    type,
    options: fresh.options,
    score: initialScore(type) === 0 ? 0 : q.score,
    required: informative ? false : q.required,
    categories: informative ? [] : q.categories,
    shuffle: false,
    partial_score: false,
    // A type with media kinds of its own keeps the media type (or starts with its own); the others drop one that only
    // such a type allows (an info block's `text`).
    media_type: ownMedia(type, q.media_type),
  }
}

/** True when the options differ from what a new question of the type starts with (a type change would lose them). */
export function hasOwnOptions(q: QuestionDraft, t: TFunction): boolean {
  return JSON.stringify(q.options) !== JSON.stringify(defaultOptions(q.type, t))
}

/** A question copied from stored data into the editor (missing fields filled, an id given). */
export function toDraft(q: Record<string, unknown>): QuestionDraft {
  return {
    id: typeof q.id === 'string' ? q.id : draftId(),
    type: q.type as QuestionType,
    statement: String(q.statement ?? ''),
    score: Number(q.score ?? 0),
    required: Boolean(q.required),
    shuffle: Boolean(q.shuffle),
    partial_score: Boolean(q.partial_score),
    categories: Array.isArray(q.categories) ? (q.categories as string[]) : [],
    media_type: String(q.media_type ?? ''),
    media_url: String(q.media_url ?? ''),
    comment: String(q.comment ?? ''),
    extra_fields: (q.extra_fields as Record<string, unknown>) ?? {},
    ...(typeof q.bank_id === 'string' ? { bank_id: q.bank_id } : {}),
    options: q.options ?? {},
  }
}
