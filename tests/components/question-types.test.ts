import type { TFunction } from 'i18next'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { changeType, newQuestion } from '~/components/tms/question-draft'
import { Question, QuestionSchemas } from '#shared/schemas/tms/question'
import { INFORMATIVE_TYPES, QUESTION_TYPES, questionType, questionTypeLabel } from '#shared/schemas/tms/question-types'
import { validQuestion } from '../support/tms-fixtures'

/**
 * The one declaration of question types (app/shared/schemas/tms/question-types.ts) is what the editor, the schemas and
 * the labels read: what the editor starts a question with is what the API's schema accepts for that type.
 */
const t = ((key: string) => catalogues['pt-BR'][key] ?? key) as unknown as TFunction
const messages = (q: unknown) => {
  const r = v.safeParse(Question, q)
  return r.success ? [] : r.issues.map((i) => i.message)
}

describe('question type declarations', () => {
  it.each(QUESTION_TYPES)('%s: a label in every language, and a schema of its own', (type) => {
    for (const catalogue of Object.values(catalogues)) expect(catalogue[questionTypeLabel(type)], type).toBeTruthy()
    expect(v.safeParse(QuestionSchemas[type], validQuestion(type)).success).toBe(true)
    // Another type's schema refuses it: each schema is the type's own.
    const other = QUESTION_TYPES.find((x) => x !== type)!
    expect(v.safeParse(QuestionSchemas[other], validQuestion(type)).success).toBe(false)
  })

  it.each(QUESTION_TYPES)('%s: the editor starts with options, score, requirement and media its schema accepts', (type) => {
    const q = newQuestion(type, t)
    expect(q.options).toEqual(questionType(type).initial((key) => t(key)))
    expect(v.safeParse(questionType(type).options, q.options).success, JSON.stringify(q.options)).toBe(true)
    // Statement aside (the author types it) and the options' own rules aside (the author fills them), nothing the
    // editor chose by itself is refused.
    const found = messages({ ...q, statement: '<p>Uma pergunta.</p>' })
    expect(found.filter((m) => /informative|text_ai_score|score_|media_type|shuffle|partial/.test(m))).toEqual([])
    expect(q.required).toBe(!INFORMATIVE_TYPES.includes(type))
  })

  it('keeps what the new type allows on a type change, and starts its options afresh', () => {
    const single = { ...newQuestion('single', t), statement: '<p>Qual?</p>', score: 3, categories: ['c1'] }
    const info = changeType(single, 'info', t)
    expect(info).toMatchObject({ type: 'info', score: 0, required: false, categories: [], media_type: 'text', options: {} })
    const back = changeType(info, 'multi', t)
    expect(back).toMatchObject({ type: 'multi', media_type: '', options: questionType('multi').initial((key) => t(key)) })
    expect(changeType(single, 'text', t)).toMatchObject({ score: 3, categories: ['c1'], options: { min_text_count: 1, max_text_count: 1000 } })
  })
})
