import type { TFunction } from '~/i18n/translator'
import { INFORMATIVE_TYPES, type QuestionType } from '#shared/schemas/tms/constants'

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

/** The options a new question of this type starts with. */
export function defaultOptions(type: QuestionType, t: TFunction): unknown {
  const choice = (statement = ''): ChoiceDraft => ({ statement, answer: false, media_type: '', media_url: '' })
  switch (type) {
    case 'single':
    case 'multi':
      return [choice(), choice()]
    case 'true_false':
      return [{ ...choice(`<p>${t('tms.editor.true')}</p>`), answer: true }, choice(`<p>${t('tms.editor.false')}</p>`)]
    case 'text':
    case 'text_ai':
      return { min_text_count: 1, max_text_count: 1000 }
    case 'fill_letters':
      return { question: '', answer: '' }
    case 'fill_words':
      return { sentence: '', incorrect: [], mode: 'select' }
    case 'cloud':
      return { phrase: '', extra: [] }
    case 'order_sentences':
      return { sentences: ['', ''], incorrect: [] }
    case 'media':
      return { accept: ['image'] }
    case 'essay':
      return {
        language: 'pt-BR',
        genre: '',
        min_word_count: 100,
        max_word_count: 400,
        text_count_unit: 'word',
        assessed_skill_ids: [],
        assessed_skill_group_id: '',
        support_text: '',
      }
    case 'game':
      return { url: '' }
    default:
      return {}
  }
}

export function newQuestion(type: QuestionType, t: TFunction): QuestionDraft {
  const informative = INFORMATIVE_TYPES.includes(type)
  return {
    id: draftId(),
    type,
    statement: '',
    score: informative || type === 'text_ai' ? 0 : 1,
    required: !informative,
    shuffle: false,
    partial_score: false,
    categories: [],
    media_type: type === 'info' ? 'text' : '',
    media_url: '',
    comment: '',
    extra_fields: {},
    options: defaultOptions(type, t),
  }
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
    score: informative || type === 'text_ai' ? 0 : q.score,
    required: informative ? false : q.required,
    categories: informative ? [] : q.categories,
    shuffle: false,
    partial_score: false,
    media_type: type === 'info' ? q.media_type || 'text' : q.media_type === 'text' ? '' : q.media_type,
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
