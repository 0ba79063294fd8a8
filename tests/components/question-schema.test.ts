import fc from 'fast-check'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { QUESTION_LIMITS } from '#shared/schemas/tms/constants'
import { PARTIAL_SCORE_TYPES, QUESTION_TYPES, SHUFFLE_TYPES, type QuestionType } from '#shared/schemas/tms/question-types'
import { Question, QuestionSchemas, createQuestionSchema } from '#shared/schemas/tms/question'
import { validQuestion } from '../support/tms-fixtures'

/** The schema the API and the editor use (app/shared/schemas/tms/question.ts); nothing here re-implements a rule. */
const issues = (q: unknown, schema: v.GenericSchema = Question) => {
  const r = v.safeParse(schema, q)
  return r.success ? [] : r.issues.map((i) => [(i.path ?? []).map((p) => String(p.key)).join('.'), i.message] as const)
}
const passes = (q: unknown) => expect(issues(q)).toEqual([])
type Q = Record<string, unknown>
const opt = (q: Q) => q.options as Q
const withOptions = (type: QuestionType, changes: Q) => ({ ...validQuestion(type), options: { ...opt(validQuestion(type)), ...changes } })
const choices = (answers: boolean[], statement = 'Option') => answers.map((answer) => ({ statement, answer }))

/** [rule, question breaking only that rule, field where the message shows]. */
const VIOLATIONS: [string, Q, string][] = [
  ['statement_min', { ...validQuestion('single'), statement: '<p><strong> a </strong></p>' }, 'statement'],
  ['formula_invalid', { ...validQuestion('text'), statement: '<p>Solve <span data-latex="x^{2" data-display="inline"></span></p>' }, 'statement'],
  ['formula_undefined', { ...validQuestion('text'), comment: '<p><span data-latex="\\nope{x}" data-display="block"></span></p>' }, 'comment'],
  ['informative_score', { ...validQuestion('info'), score: 1 }, 'score'],
  ['informative_required', { ...validQuestion('section'), required: true }, 'required'],
  ['informative_categories', { ...validQuestion('info'), categories: ['c1'] }, 'categories'],
  ['text_ai_score', { ...validQuestion('text_ai'), score: 2 }, 'score'],
  ['text_ai_comment', { ...validQuestion('text_ai'), comment: '<p> </p>' }, 'comment'],
  ['score_negative', { ...validQuestion('single'), score: -1 }, 'score'],
  ['score_max', { ...validQuestion('single'), score: QUESTION_LIMITS.scoreMax + 1 }, 'score'],
  ['score_step', { ...validQuestion('single'), score: 1.005 }, 'score'],
  ['shuffle_not_allowed', { ...validQuestion('text'), shuffle: true }, 'shuffle'],
  ['partial_score_not_allowed', { ...validQuestion('single'), partial_score: true }, 'partial_score'],
  ['category_duplicate', { ...validQuestion('single'), categories: ['c1', 'c1'] }, 'categories'],
  ['media_type_required', { ...validQuestion('single'), media_url: 'https://example.org/a.png' }, 'media_type'],
  ['media_type_required', { ...validQuestion('info'), media_type: '' }, 'media_type'],
  ['media_url_required', { ...validQuestion('single'), media_type: 'img' }, 'media_url'],
  ['media_url_min', { ...validQuestion('single'), media_type: 'link', media_url: 'ab' }, 'media_url'],
  ['media_url_invalid', { ...validQuestion('single'), media_type: 'pdf', media_url: 'ftp://example.org/a.pdf' }, 'media_url'],
  ['video_url', { ...validQuestion('single'), media_type: 'video', media_url: 'https://vimeo.com/123456' }, 'media_url'],
  ['video_url', { ...validQuestion('info'), media_type: 'video', media_url: 'https://youtu.be/abc' }, 'media_url'],
  ['options_min', { ...validQuestion('single'), options: choices([true]) }, 'options'],
  ['option_statement_min', { ...validQuestion('multi'), options: [{ statement: '<p></p>', answer: true }, ...choices([false])] }, 'options.0.statement'],
  [
    'media_url_required',
    { ...validQuestion('multi'), options: [{ statement: 'A', answer: true, media_type: 'img' }, ...choices([false])] },
    'options.0.media_url',
  ],
  ['single_correct', { ...validQuestion('single'), options: choices([true, true]) }, 'options'],
  ['single_correct', { ...validQuestion('true_false'), options: choices([false, false]) }, 'options'],
  ['multi_correct', { ...validQuestion('multi'), options: choices([false, false]) }, 'options'],
  ['text_count_min', withOptions('text', { min_text_count: 0 }), 'options.min_text_count'],
  ['text_count_max', withOptions('text_ai', { max_text_count: QUESTION_LIMITS.textCountMax + 1 }), 'options.max_text_count'],
  ['text_count_order', withOptions('text', { min_text_count: 50, max_text_count: 50 }), 'options.max_text_count'],
  ['essay_language', withOptions('essay', { language: '' }), 'options.language'],
  ['essay_genre', withOptions('essay', { genre: '' }), 'options.genre'],
  ['essay_word_min', withOptions('essay', { min_word_count: 0 }), 'options.min_word_count'],
  ['essay_word_order', withOptions('essay', { min_word_count: 300, max_word_count: 200 }), 'options.max_word_count'],
  ['essay_word_max_min', withOptions('essay', { min_word_count: 10, max_word_count: 40 }), 'options.max_word_count'],
  ['essay_word_max', withOptions('essay', { max_word_count: QUESTION_LIMITS.essayWordMax + 1 }), 'options.max_word_count'],
  ['essay_skills', withOptions('essay', { assessed_skill_ids: [], assessed_skill_group_id: '' }), 'options.assessed_skill_ids'],
  ['essay_skill_duplicate', withOptions('essay', { assessed_skill_ids: ['s1', 's1'] }), 'options.assessed_skill_ids'],
  ['fill_letters_answer', withOptions('fill_letters', { answer: ' ' }), 'options.answer'],
  ['fill_letters_spaces', withOptions('fill_letters', { answer: 'New York' }), 'options.answer'],
  ['fill_words_nested', withOptions('fill_words', { sentence: 'The [[big [[sun]]]] rises.' }), 'options.sentence'],
  ['fill_words_unclosed', withOptions('fill_words', { sentence: 'The [[sun rises.' }), 'options.sentence'],
  ['fill_words_gap_required', withOptions('fill_words', { sentence: 'No gaps here.' }), 'options.sentence'],
  ['fill_words_gap_empty', withOptions('fill_words', { sentence: 'The [[ ]] rises.' }), 'options.sentence'],
  ['fill_words_gap_words', withOptions('fill_words', { sentence: 'The [[one two three four five six]] rises.' }), 'options.sentence'],
  ['fill_words_options_min', withOptions('fill_words', { sentence: 'The [[sun]] rises.', incorrect: [] }), 'options.incorrect'],
  ['fill_words_incorrect_empty', withOptions('fill_words', { incorrect: ['moon', ' '] }), 'options.incorrect.1'],
  ['fill_words_incorrect_correct', withOptions('fill_words', { incorrect: ['Sun '] }), 'options.incorrect.0'],
  ['fill_words_incorrect_duplicate', withOptions('fill_words', { incorrect: ['moon', 'MOON'] }), 'options.incorrect.1'],
  ['order_min', withOptions('order_sentences', { sentences: ['Only one'] }), 'options.sentences'],
  ['order_empty', withOptions('order_sentences', { sentences: ['First', ' ', 'Third'] }), 'options.sentences.1'],
  ['cloud_phrase', withOptions('cloud', { phrase: '  ', extra: ['a', 'b'] }), 'options.phrase'],
  ['cloud_ids_min', withOptions('cloud', { phrase: 'alone', extra: [] }), 'options.extra'],
  ['cloud_extra_empty', withOptions('cloud', { extra: [''] }), 'options.extra.0'],
  ['cloud_duplicate', withOptions('cloud', { extra: ['dogs', 'Dogs'] }), 'options.extra.1'],
  ['cloud_duplicate', withOptions('cloud', { extra: ['milk'] }), 'options.extra.0'],
  ['media_accept', withOptions('media', { accept: [] }), 'options.accept'],
  ['game_url', withOptions('game', { url: 'javascript:alert(1)' }), 'options.url'],
  ['type', { ...validQuestion('single'), type: 'riddle' }, 'type'],
]

describe('question rules (seed 001 §5), one schema per type', () => {
  it.each(QUESTION_TYPES)('accepts a valid %s question through its own schema and the variant', (type) => {
    passes(validQuestion(type))
    expect(issues(validQuestion(type), QuestionSchemas[type])).toEqual([])
  })

  it.each(VIOLATIONS.map(([rule, q, field], i) => [`${rule} (#${i})`, rule, q, field] as const))(
    'refuses %s with its own message at its field',
    (_name, rule, q, field) => {
      expect(issues(q)).toContainEqual([field, `validation.question.${rule}`])
      // The message is translated in every language.
      for (const catalogue of Object.values(catalogues)) expect(catalogue[`validation.question.${rule}`], rule).toBeTruthy()
    },
  )

  it('covers every rule the schema can report', () => {
    const source = Object.keys(catalogues['pt-BR']).filter(
      (k) => k.startsWith('validation.question.') && !['validation.question.text', 'validation.question.score_min'].includes(k),
    )
    const tested = new Set(VIOLATIONS.map(([rule]) => `validation.question.${rule}`))
    expect(source.filter((k) => !tested.has(k))).toEqual([])
  })

  it('refuses a score below a configured minimum with its own message', () => {
    const { Question: strict } = createQuestionSchema({ ...QUESTION_LIMITS, scoreMin: 1 })
    expect(issues({ ...validQuestion('single'), score: 0.5 }, strict)).toEqual([['score', 'validation.question.score_min']])
    expect(issues({ ...validQuestion('single'), score: 1 }, strict)).toEqual([])
  })
})

describe('question rules as properties', () => {
  const scored = QUESTION_TYPES.filter((t) => !['info', 'section', 'text_ai'].includes(t))

  it('accepts every score in thousandths on the step within min and max, and refuses the others', () => {
    fc.assert(
      fc.property(fc.constantFrom(...scored), fc.integer({ min: 0, max: 10_000 }), (type, hundredths) => {
        expect(issues({ ...validQuestion(type), score: hundredths / 100 })).toEqual([])
      }),
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }).filter((k) => k % 10 !== 0),
        (thousandths) => {
          expect(issues({ ...validQuestion('single'), score: thousandths / 1000 })).toContainEqual(['score', 'validation.question.score_step'])
        },
      ),
    )
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: -1e-9, noNaN: true }), (score) => {
        expect(issues({ ...validQuestion('multi'), score })).toContainEqual(['score', 'validation.question.score_negative'])
      }),
    )
  })

  it('measures the statement without markup', () => {
    const tag = fc.constantFrom('p', 'strong', 'em', 'u', 'li', 'h2')
    fc.assert(
      fc.property(fc.string({ minLength: 0, maxLength: 40 }), tag, (text, t) => {
        const html = `<${t}>${text.replace(/[<>&]/g, '')}</${t}>`
        const visible = text.replace(/[<>&]/g, '').replace(/\s+/g, ' ').trim()
        const found = issues({ ...validQuestion('text'), statement: html }).some(([f, m]) => f === 'statement' && m === 'validation.question.statement_min')
        expect(found).toBe(visible.length < QUESTION_LIMITS.statementMin)
      }),
    )
  })

  it('allows shuffle and partial score only on their types', () => {
    fc.assert(
      fc.property(fc.constantFrom(...QUESTION_TYPES), fc.boolean(), fc.boolean(), (type, shuffle, partial) => {
        const found = issues({ ...validQuestion(type), shuffle, partial_score: partial }).map(([, m]) => m)
        expect(found.includes('validation.question.shuffle_not_allowed')).toBe(shuffle && !SHUFFLE_TYPES.includes(type))
        expect(found.includes('validation.question.partial_score_not_allowed')).toBe(partial && !PARTIAL_SCORE_TYPES.includes(type))
      }),
    )
  })

  it('limits fill_words gaps to five words and builds the phrase from the sentence', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/)
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 10 }), (words) => {
        const q = withOptions('fill_words', { sentence: `Start [[${words.join(' ')}]] end.`, incorrect: ['zzzzzzzzz'] })
        const r = v.safeParse(Question, q)
        if (words.length <= QUESTION_LIMITS.fillWordsGapWords) {
          expect(r.success).toBe(true)
          if (r.success && r.output.type === 'fill_words') expect(r.output.options.phrase[1]).toEqual({ type: 'select', value: words.join(' ') })
        } else expect(issues(q)).toContainEqual(['options.sentence', 'validation.question.fill_words_gap_words'])
      }),
    )
  })

  it('accepts fill_letters answers exactly when they have no spaces', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 30 }), (answer) => {
        const found = issues(withOptions('fill_letters', { answer })).map(([, m]) => m)
        expect(found.length === 0).toBe(answer.trim() !== '' && !/\s/.test(answer))
      }),
    )
  })

  it('counts correct options: single and true_false exactly one, multi at least one', () => {
    fc.assert(
      fc.property(fc.constantFrom('single', 'multi', 'true_false' as const), fc.array(fc.boolean(), { minLength: 2, maxLength: 8 }), (type, answers) => {
        const ok = issues({ ...validQuestion(type), partial_score: false, options: choices(answers) }).length === 0
        const correct = answers.filter(Boolean).length
        expect(ok).toBe(type === 'multi' ? correct >= 1 : correct === 1)
      }),
    )
  })
})
