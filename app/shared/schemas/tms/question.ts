import * as v from 'valibot'
import {
  ANSWER_MEDIA,
  CONTENT_LANGUAGES,
  FILL_WORDS_MODES,
  INFO_KINDS,
  MEDIA_TYPES,
  QUESTION_LIMITS,
  TEXT_COUNT_UNITS,
  type QuestionLimits,
  type QuestionType,
} from './constants'
import { plainText } from '../../rich-text'
import { Id } from './common'
import { parsePhrase, wordsOf } from './phrase'
import * as rules from './question-rules'

/**
 * One valibot schema per question type (seed 001 §3 fields, §5 rules), joined in a variant on `type`. The editor
 * runs it live and the API runs it on every write, so both show the same message at the same field.
 */
const RICH_MAX = 50_000
const rich = v.pipe(v.string('validation.question.text'), v.maxLength(RICH_MAX, 'validation.max_length'))
const line = (max = 500) => v.pipe(v.string('validation.question.text'), v.maxLength(max, 'validation.max_length'))
const int = v.pipe(
  v.number('validation.number'),
  v.integer('validation.integer'),
  v.minValue(0, 'validation.min_value'),
  v.maxValue(1_000_000, 'validation.max_value'),
)
const list = <T extends v.GenericSchema>(item: T, max = 100) => v.optional(v.pipe(v.array(item), v.maxLength(max, 'validation.max_items')), [])
const ExtraValue = v.union([v.pipe(v.string(), v.maxLength(2000, 'validation.max_length')), v.number(), v.boolean(), v.null()])

/**
 * Extra fields of a question (realm `tms_question_extra_fields`): a flat object of values. The realm's definitions
 * (required, minimum length) are enforced by the extra-field helper of the extra-fields issue.
 */
export const ExtraFields = v.pipe(
  v.record(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,39}$/, 'validation.extra_field_key')), ExtraValue),
  v.check((o) => Object.keys(o).length <= 50, 'validation.max_items'),
)

function common<T extends QuestionType>(type: T, opts: { required: boolean; mediaTypes?: readonly string[] }) {
  return {
    id: v.optional(Id),
    type: v.literal(type),
    statement: rich,
    score: v.optional(v.pipe(v.number('validation.number'), v.finite('validation.number')), 0),
    required: v.optional(v.boolean('validation.boolean'), opts.required),
    shuffle: v.optional(v.boolean('validation.boolean'), false),
    partial_score: v.optional(v.boolean('validation.boolean'), false),
    categories: list(Id, 50),
    media_type: v.optional(v.picklist(['', ...(opts.mediaTypes ?? MEDIA_TYPES)], 'validation.picklist'), ''),
    media_url: v.optional(line(2000), ''),
    comment: v.optional(rich, ''),
    extra_fields: v.optional(ExtraFields, {}),
    /** The question bank item this question was copied from (a link back to its source). */
    bank_id: v.optional(Id),
  }
}

const ChoiceOption = v.object({
  id: v.optional(Id),
  statement: rich,
  answer: v.optional(v.boolean('validation.boolean'), false),
  media_type: v.optional(v.picklist(['', ...MEDIA_TYPES], 'validation.picklist'), ''),
  media_url: v.optional(line(2000), ''),
})
const TextCount = v.object({ min_text_count: int, max_text_count: int })
const Words = (max = 100) => list(line(200), max)
const Empty = v.optional(v.object({}), {})

const options = {
  info: Empty,
  section: Empty,
  text: TextCount,
  text_ai: TextCount,
  single: v.pipe(v.array(ChoiceOption), v.maxLength(26, 'validation.max_items')),
  multi: v.pipe(v.array(ChoiceOption), v.maxLength(26, 'validation.max_items')),
  true_false: v.pipe(v.array(ChoiceOption), v.maxLength(26, 'validation.max_items')),
  fill_letters: v.object({ question: v.optional(line(300), ''), answer: line(100) }),
  fill_words: v.pipe(
    v.object({ sentence: line(5000), incorrect: Words(50), mode: v.optional(v.picklist(FILL_WORDS_MODES, 'validation.picklist'), 'select') }),
    // The stored phrase (text and select items) always follows from the sentence.
    v.transform((o) => ({ ...o, phrase: parsePhrase(o.sentence) })),
  ),
  cloud: v.pipe(
    v.object({ phrase: line(1000), extra: Words(50) }),
    v.transform((o) => ({ ...o, ids: [...wordsOf(o.phrase), ...o.extra.map((w) => w.trim())] })),
  ),
  order_sentences: v.object({ sentences: Words(50), incorrect: Words(50) }),
  media: v.object({
    accept: v.pipe(
      v.array(v.picklist(ANSWER_MEDIA, 'validation.picklist')),
      v.minLength(1, 'validation.question.media_accept'),
      v.maxLength(4, 'validation.max_items'),
    ),
  }),
  essay: v.object({
    language: v.optional(v.union([v.literal(''), v.picklist(CONTENT_LANGUAGES, 'validation.picklist')]), ''),
    genre: v.optional(v.union([v.literal(''), Id]), ''),
    min_word_count: int,
    max_word_count: int,
    text_count_unit: v.optional(v.picklist(TEXT_COUNT_UNITS, 'validation.picklist'), 'word'),
    assessed_skill_ids: list(Id, 50),
    assessed_skill_group_id: v.optional(v.union([v.literal(''), Id]), ''),
    support_text: v.optional(rich, ''),
  }),
  game: v.object({ url: line(2000) }),
} satisfies Record<QuestionType, v.GenericSchema>

type Options = typeof options

/** Adds each rule's issue at its field, after the structure is right. */
function checked<S extends v.GenericSchema>(schema: S, run: (q: v.InferOutput<S>, report: rules.Report) => void) {
  return v.pipe(
    schema,
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return
      const root = dataset.value as unknown
      run(dataset.value as v.InferOutput<S>, (rule, keys) => addIssue({ message: `validation.question.${rule}`, path: pathItems(root, keys) }))
    }),
  )
}

function pathItems(root: unknown, keys: rules.Key[]): [v.IssuePathItem, ...v.IssuePathItem[]] | undefined {
  const items: v.IssuePathItem[] = []
  let input = root
  for (const key of keys) {
    const value = input !== null && typeof input === 'object' ? (input as Record<string | number, unknown>)[key] : undefined
    items.push(
      (Array.isArray(input)
        ? { type: 'array', origin: 'value', input, key, value }
        : { type: 'object', origin: 'value', input, key, value }) as v.IssuePathItem,
    )
    input = value
  }
  return items.length ? (items as [v.IssuePathItem, ...v.IssuePathItem[]]) : undefined
}

/** The schema of one question type under the given limits (the product uses QUESTION_LIMITS). */
function typeSchema<T extends QuestionType>(type: T, limits: QuestionLimits) {
  const informative = type === 'info' || type === 'section'
  const base = v.object({
    ...common(type, { required: !informative, mediaTypes: type === 'info' ? INFO_KINDS : undefined }),
    options: options[type] as Options[T],
  })
  return checked(base, (value, report) => {
    // The generic type is opaque inside; every variant has the common fields and its own options.
    const q = value as unknown as rules.QuestionCore & { options: unknown }
    rules.commonRules(q, report, limits)
    const o = q.options
    switch (type) {
      case 'single':
      case 'multi':
      case 'true_false':
        return rules.choiceRules(type, o as rules.ChoiceOption[], report, limits)
      case 'text':
      case 'text_ai':
        rules.textCountRules(o as { min_text_count: number; max_text_count: number }, report, limits)
        if (type === 'text_ai' && !plainText(q.comment)) report('text_ai_comment', ['comment'])
        return
      case 'essay':
        return rules.essayRules(o as Parameters<typeof rules.essayRules>[0], report, limits)
      case 'fill_letters':
        return rules.fillLettersRules(o as { answer: string }, report)
      case 'fill_words':
        return rules.fillWordsRules(o as { sentence: string; incorrect: string[] }, report, limits)
      case 'order_sentences':
        return rules.orderRules(o as { sentences: string[]; incorrect: string[] }, report, limits)
      case 'cloud':
        return rules.cloudRules(o as { phrase: string; extra: string[] }, report, limits)
      case 'game':
        if (!rules.isMediaUrl((o as { url: string }).url) || (o as { url: string }).url.startsWith('/')) report('game_url', ['options', 'url'])
    }
  })
}

/** Every question type's schema and the variant that picks one by `type`, for the given limits. */
export function createQuestionSchema(limits: QuestionLimits = QUESTION_LIMITS) {
  const byType = {
    info: typeSchema('info', limits),
    text: typeSchema('text', limits),
    text_ai: typeSchema('text_ai', limits),
    single: typeSchema('single', limits),
    multi: typeSchema('multi', limits),
    true_false: typeSchema('true_false', limits),
    fill_letters: typeSchema('fill_letters', limits),
    fill_words: typeSchema('fill_words', limits),
    cloud: typeSchema('cloud', limits),
    order_sentences: typeSchema('order_sentences', limits),
    media: typeSchema('media', limits),
    essay: typeSchema('essay', limits),
    game: typeSchema('game', limits),
    section: typeSchema('section', limits),
  }
  return {
    byType,
    Question: v.variant('type', Object.values(byType) as [(typeof byType)['info'], ...(typeof byType)[keyof typeof byType][]], 'validation.question.type'),
  }
}

const product = createQuestionSchema()
/** One schema per question type, as the API and the editor use them. */
export const QuestionSchemas = product.byType
/** Any question: the variant on `type`. */
export const Question = product.Question
export type Question = v.InferOutput<typeof Question>
export type QuestionInput = v.InferInput<typeof Question>
export type QuestionOf<T extends QuestionType> = Extract<Question, { type: T }>
