import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { issuesToErrors } from '#shared/schemas/error'
import { MAX_QUESTIONS, QUIZ_OPTIONS, QuizQuestionInput, type QuizOption } from '#shared/schemas/quiz'
import { plainText } from '#shared/rich-text'
import { parseCsv } from './csv'
import { ApiError, apiError } from './errors'

/** Quiz and poll behaviour shared by their API files (issue 14). */

export { answerScore, SCORE_BASE } from './quiz-score'

const CSV_COLUMNS = ['text', 'option_a', 'option_b', 'option_c', 'correct', 'lifes_disallowed'] as const

const truthy = (s: string | undefined) => ['1', 'true', 'yes', 'sim', 'si', 'x'].includes((s ?? '').trim().toLowerCase())

/**
 * One item per rule a row breaks, its field named `line.<n>.<field>`; the message is the shared `form.line_error`
 * (value `{ line, rule, cause, value }`: the line and the rule it breaks), so the screen says which line.
 */
function rowErrors(line: number, issues: v.BaseIssue<unknown>[]): ErrorItem[] {
  return issuesToErrors(issues).map((e) => ({
    ...e,
    field: `line.${line}${e.field ? `.${e.field}` : ''}`,
    message: 'form.line_error',
    value: { line, rule: e.message, cause: e.cause, value: e.value },
  }))
}

/**
 * The questions of an import (CSV with a header naming at least text, option_a, option_b, option_c and correct; or
 * a JSON array of questions): every row's errors are reported with its line (the CSV line, or the array index + 1),
 * and nothing is imported unless every row is valid and there is at least one (seed §5).
 */
export function parseQuestionImport(format: 'csv' | 'json', content: string): QuizQuestionInput[] {
  const rows: { line: number; input: unknown }[] = []
  if (format === 'json') {
    let data: unknown
    try {
      data = JSON.parse(content)
    } catch {
      throw apiError(422, 'invalid_json', 'validation.quiz.import_json', 'content', null)
    }
    if (!Array.isArray(data)) throw apiError(422, 'invalid_json', 'validation.quiz.import_json', 'content', null)
    data.forEach((input, i) => rows.push({ line: i + 1, input }))
  } else {
    const { header, rows: csv } = parseCsv(content)
    const names = header.map((h) => h.trim().toLowerCase())
    const missing = CSV_COLUMNS.slice(0, 5).filter((c) => !names.includes(c))
    if (missing.length) throw apiError(422, 'missing_columns', 'validation.quiz.import_columns', 'line.1', missing)
    for (const r of csv) {
      if (r.cells.every((c) => c.trim() === '')) continue
      const get = (name: string) => r.cells[names.indexOf(name)]
      rows.push({
        line: r.line,
        input: {
          text: get('text') ?? '',
          option_a: get('option_a') ?? '',
          option_b: get('option_b') ?? '',
          option_c: get('option_c') ?? '',
          correct: (get('correct') ?? '').trim().toUpperCase(),
          lifes_disallowed: truthy(get('lifes_disallowed')),
        },
      })
    }
  }
  if (!rows.length) throw apiError(422, 'empty', 'validation.quiz.import_empty', 'content', 0)
  if (rows.length > MAX_QUESTIONS) throw apiError(422, 'too_many', 'validation.max_items', 'content', MAX_QUESTIONS)
  const errors: ErrorItem[] = []
  const out: QuizQuestionInput[] = []
  for (const r of rows) {
    const parsed = v.safeParse(QuizQuestionInput, r.input)
    if (parsed.success) out.push(parsed.output)
    else errors.push(...rowErrors(r.line, parsed.issues))
  }
  if (errors.length) throw new ApiError(422, errors)
  return out
}

/** A question-bank item a bank import left out, and why (`not_found`, `not_three_choice`, or a rule its text breaks). */
export interface SkippedBankItem {
  id: string
  index: number
  /** The item's statement as plain text (empty when it was not found), so the screen can name it. */
  text: string
  /** `ids.<index>`, or `ids.<index>.<field>` for the rule of a field (`text`, `option_b`…) it breaks. */
  field: string
  cause: string
  message: string
  value: unknown
}

/**
 * Question-bank items as quiz questions: only single-choice items with exactly three options (one correct) fit, and
 * only when their statement and options are within the quiz's limits; every other item is skipped with its reason.
 * Statements and options are stored as plain text. When nothing fits the import is refused (422, each item by its
 * index), so a bank import adds what fits and tells what it left out.
 */
export function bankToQuestions(
  items: { id: string; type: string; statement: string; options: string }[],
  ids: string[],
): { questions: QuizQuestionInput[]; skipped: SkippedBankItem[] } {
  const byId = new Map(items.map((i) => [i.id, i]))
  const errors: ErrorItem[] = []
  const skipped: SkippedBankItem[] = []
  const questions: QuizQuestionInput[] = []
  const skip = (index: number, id: string, text: string, e: ErrorItem) => {
    errors.push(e)
    skipped.push({ id, index, text, field: e.field, cause: e.cause, message: e.message, value: e.value })
  }
  ids.forEach((id, i) => {
    const item = byId.get(id)
    if (!item) return skip(i, id, '', { field: `ids.${i}`, cause: 'not_found', value: id, message: 'validation.quiz.bank_not_found' })
    const text = plainText(item.statement).slice(0, 200)
    let options: { statement?: string; answer?: boolean }[] = []
    try {
      const parsed = JSON.parse(item.options) as unknown
      if (Array.isArray(parsed)) options = parsed as typeof options
    } catch {
      options = []
    }
    const correct = options.findIndex((o) => o.answer === true)
    if (item.type !== 'single' || options.length !== 3 || options.filter((o) => o.answer === true).length !== 1)
      return skip(i, id, text, { field: `ids.${i}`, cause: 'not_three_choice', value: id, message: 'validation.quiz.bank_not_three_choice' })
    const parsed = v.safeParse(QuizQuestionInput, {
      text: plainText(item.statement),
      option_a: plainText(options[0].statement ?? ''),
      option_b: plainText(options[1].statement ?? ''),
      option_c: plainText(options[2].statement ?? ''),
      correct: QUIZ_OPTIONS[correct] as QuizOption,
    })
    if (parsed.success) questions.push(parsed.output)
    else {
      // The first rule it breaks names the field (`text`, `option_b`…): "Máximo de 300 caracteres." on the screen.
      const [e] = issuesToErrors(parsed.issues)
      skip(i, id, text, { ...e, field: `ids.${i}.${e.field}` })
    }
  })
  if (!questions.length) throw new ApiError(422, errors)
  return { questions, skipped }
}
