import * as v from 'valibot'
import { plainText } from '../../rich-text'
import { Id } from './common'
import { ANSWER_MEDIA, CONTENT_LANGUAGES, FILL_WORDS_MODES, INFO_KINDS, MEDIA_TYPES, TEXT_COUNT_UNITS, type QuestionLimits } from './constants'
import { parsePhrase, wordsOf } from './phrase'
import { int, line, list, rich } from './question-fields'
import * as rules from './question-rules'

/**
 * How a question of a type is scored: `none` (informative: score 0, never required, no categories), `auto` (compared
 * with the answer key), `manual` (a teacher corrects it), `ai` (corrected by AI: score 0, a correction guide needed),
 * `external` (the game reports it).
 */
export type ScoringKind = 'none' | 'auto' | 'manual' | 'ai' | 'external'

interface Declaration<S extends v.GenericSchema> {
  /** Translation key of the type's name (every language's catalogue has it). */
  label: string
  scoring: ScoringKind
  /** The structural schema of `options` (what the API stores). */
  options: S
  /** Rules of seed 001 §5 on the options (and fields the type constrains), reported at their fields. */
  check?: (options: v.InferOutput<S>, q: rules.QuestionCore & { comment: string }, report: rules.Report, limits: QuestionLimits) => void
  /** The options a new question of the type starts with in the editor (`text` translates the editor's words). */
  initial: (text: (key: string) => string) => v.InferInput<S>
  /** What `media_type` may be (default: the media a question may carry), and what a new question starts with. */
  media?: { kinds: readonly string[]; initial: string }
  /** The options may be shuffled for each student. */
  shuffle?: boolean
  /** Part of the score for a partly right answer. */
  partialScore?: boolean
  /** The options are choices (statement, answer, media) with ids of their own. */
  choice?: boolean
}

const ChoiceOption = v.object({
  id: v.optional(Id),
  statement: rich,
  answer: v.optional(v.boolean('validation.boolean'), false),
  media_type: v.optional(v.picklist(['', ...MEDIA_TYPES], 'validation.picklist'), ''),
  media_url: v.optional(line(2000), ''),
})
const Choices = v.pipe(v.array(ChoiceOption), v.maxLength(26, 'validation.max_items'))
const TextCount = v.object({ min_text_count: int, max_text_count: int })
const Words = (max = 100) => list(line(200), max)
const Empty = v.optional(v.object({}), {})

const choice = (statement = '') => ({ statement, answer: false, media_type: '' as const, media_url: '' })

/** One type's declaration, its options' schema giving the types of its rules and initial options. */
const declare = <S extends v.GenericSchema>(declaration: Declaration<S>) => declaration
const choiceType = (label: string, extra: { partialScore?: boolean; initial?: Declaration<typeof Choices>['initial'] } = {}) =>
  declare({
    label,
    scoring: 'auto',
    options: Choices,
    check: (o, q, report, limits) => rules.choiceRules(q.type, o, report, limits),
    initial: extra.initial ?? (() => [choice(), choice()]),
    shuffle: true,
    partialScore: extra.partialScore ?? false,
    choice: true,
  })
const textCount = { options: TextCount, initial: () => ({ min_text_count: 1, max_text_count: 1000 }) }

/**
 * Every question type (seed 001 §3 "Options by type"), declared once: its name's translation key, how it is scored,
 * its options' schema and rules, what a new one starts with, and what it allows. The API's validation, the editor,
 * the bank's filters and labels read this; adding a type is one entry here and its `tms.type.*` translations (and
 * its options editor and student view, which the type checker asks for).
 */
export const QUESTION_TYPE_DECLARATIONS = {
  info: declare({
    label: 'tms.type.info',
    scoring: 'none',
    options: Empty,
    initial: () => ({}),
    media: { kinds: INFO_KINDS, initial: 'text' },
  }),
  text: declare({
    label: 'tms.type.text',
    scoring: 'manual',
    ...textCount,
    check: (o, _q, report, limits) => rules.textCountRules(o, report, limits),
  }),
  text_ai: declare({
    label: 'tms.type.text_ai',
    scoring: 'ai',
    ...textCount,
    check: (o, q, report, limits) => {
      rules.textCountRules(o, report, limits)
      if (!plainText(q.comment)) report('text_ai_comment', ['comment'])
    },
  }),
  single: choiceType('tms.type.single'),
  multi: choiceType('tms.type.multi', { partialScore: true }),
  true_false: choiceType('tms.type.true_false', {
    partialScore: true,
    initial: (text) => [{ ...choice(`<p>${text('tms.editor.true')}</p>`), answer: true }, choice(`<p>${text('tms.editor.false')}</p>`)],
  }),
  fill_letters: declare({
    label: 'tms.type.fill_letters',
    scoring: 'auto',
    options: v.object({ question: v.optional(line(300), ''), answer: line(100) }),
    check: (o, _q, report) => rules.fillLettersRules(o, report),
    initial: () => ({ question: '', answer: '' }),
  }),
  fill_words: declare({
    label: 'tms.type.fill_words',
    scoring: 'auto',
    options: v.pipe(
      v.object({ sentence: line(5000), incorrect: Words(50), mode: v.optional(v.picklist(FILL_WORDS_MODES, 'validation.picklist'), 'select') }),
      // The stored phrase (text and select items) always follows from the sentence.
      v.transform((o) => ({ ...o, phrase: parsePhrase(o.sentence) })),
    ),
    check: (o, _q, report, limits) => rules.fillWordsRules(o, report, limits),
    initial: () => ({ sentence: '', incorrect: [], mode: 'select' as const }),
    shuffle: true,
  }),
  cloud: declare({
    label: 'tms.type.cloud',
    scoring: 'auto',
    options: v.pipe(
      v.object({ phrase: line(1000), extra: Words(50) }),
      v.transform((o) => ({ ...o, ids: [...wordsOf(o.phrase), ...o.extra.map((w) => w.trim())] })),
    ),
    check: (o, _q, report, limits) => rules.cloudRules(o, report, limits),
    initial: () => ({ phrase: '', extra: [] }),
    shuffle: true,
  }),
  order_sentences: declare({
    label: 'tms.type.order_sentences',
    scoring: 'auto',
    options: v.object({ sentences: Words(50), incorrect: Words(50) }),
    check: (o, _q, report, limits) => rules.orderRules(o, report, limits),
    initial: () => ({ sentences: ['', ''], incorrect: [] }),
    shuffle: true,
  }),
  media: declare({
    label: 'tms.type.media',
    scoring: 'manual',
    options: v.object({
      accept: v.pipe(
        v.array(v.picklist(ANSWER_MEDIA, 'validation.picklist')),
        v.minLength(1, 'validation.question.media_accept'),
        v.maxLength(4, 'validation.max_items'),
      ),
    }),
    initial: () => ({ accept: ['image' as const] }),
  }),
  essay: declare({
    label: 'tms.type.essay',
    scoring: 'manual',
    options: v.object({
      language: v.optional(v.union([v.literal(''), v.picklist(CONTENT_LANGUAGES, 'validation.picklist')]), ''),
      genre: v.optional(v.union([v.literal(''), Id]), ''),
      min_word_count: int,
      max_word_count: int,
      text_count_unit: v.optional(v.picklist(TEXT_COUNT_UNITS, 'validation.picklist'), 'word'),
      assessed_skill_ids: list(Id, 50),
      assessed_skill_group_id: v.optional(v.union([v.literal(''), Id]), ''),
      support_text: v.optional(rich, ''),
    }),
    check: (o, _q, report, limits) => rules.essayRules(o, report, limits),
    initial: () => ({
      language: 'pt-BR' as const,
      genre: '',
      min_word_count: 100,
      max_word_count: 400,
      text_count_unit: 'word' as const,
      assessed_skill_ids: [],
      assessed_skill_group_id: '',
      support_text: '',
    }),
  }),
  game: declare({
    label: 'tms.type.game',
    scoring: 'external',
    options: v.object({ url: line(2000) }),
    check: (o, _q, report) => {
      if (!rules.isMediaUrl(o.url) || o.url.startsWith('/')) report('game_url', ['options', 'url'])
    },
    initial: () => ({ url: '' }),
  }),
  section: declare({
    label: 'tms.type.section',
    scoring: 'none',
    options: Empty,
    initial: () => ({}),
  }),
}

type Declarations = typeof QUESTION_TYPE_DECLARATIONS
export type QuestionType = keyof Declarations
/** The declaration of one type. */
export type QuestionTypeDeclaration<T extends QuestionType = QuestionType> = Declarations[T]

/** Every question type, in the order the editor offers them. */
export const QUESTION_TYPES = Object.keys(QUESTION_TYPE_DECLARATIONS) as [QuestionType, ...QuestionType[]]

/** The declaration of a type (what the editor, the schemas and the API read). */
export function questionType<T extends QuestionType>(type: T): QuestionTypeDeclaration<T> {
  return QUESTION_TYPE_DECLARATIONS[type]
}

/** The translation key of a type's name; an unknown type (older data) is shown as it is stored. */
export function questionTypeLabel(type: string): string {
  return type in QUESTION_TYPE_DECLARATIONS ? QUESTION_TYPE_DECLARATIONS[type as QuestionType].label : type
}

type Flags = Pick<Declaration<v.GenericSchema>, 'scoring' | 'shuffle' | 'partialScore' | 'choice'>
const where = (test: (d: Flags) => boolean | undefined): readonly QuestionType[] =>
  QUESTION_TYPES.filter((type) => test(QUESTION_TYPE_DECLARATIONS[type] as Flags))
/** Informative types: score 0, never required, no categories. */
export const INFORMATIVE_TYPES = where((d) => d.scoring === 'none')
/** Types whose options may be shuffled for each student. */
export const SHUFFLE_TYPES = where((d) => d.shuffle)
/** Types that may give part of the score for a partly right answer. */
export const PARTIAL_SCORE_TYPES = where((d) => d.partialScore)
/** Types whose options are choices. */
export const CHOICE_TYPES = where((d) => d.choice)
