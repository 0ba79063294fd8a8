import * as v from 'valibot'
import { MEDIA_TYPES, QUESTION_LIMITS, type QuestionLimits } from './constants'
import { Id } from './common'
import { line, list, rich } from './question-fields'
import * as rules from './question-rules'
import { QUESTION_TYPES, questionType, type QuestionType, type QuestionTypeDeclaration } from './question-types'

/**
 * One valibot schema per question type (seed 001 §3 fields, §5 rules), joined in a variant on `type`: the fields every
 * question has, and the options and rules of its type's declaration (question-types.ts). The editor runs it live and
 * the API runs it on every write, so both show the same message at the same field.
 */
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

type Options = { [T in QuestionType]: QuestionTypeDeclaration<T>['options'] }

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
  const declared = questionType(type)
  const base = v.object({
    ...common(type, { required: declared.scoring !== 'none', mediaTypes: declared.media?.kinds }),
    options: declared.options as Options[T],
  })
  return checked(base, (value, report) => {
    // The generic type is opaque inside; every variant has the common fields and its own options.
    const q = value as unknown as rules.QuestionCore & { comment: string; options: never }
    rules.commonRules(q, declared, report, limits)
    declared.check?.(q.options, q, report, limits)
  })
}

/** Every question type's schema and the variant that picks one by `type`, for the given limits. */
export function createQuestionSchema(limits: QuestionLimits = QUESTION_LIMITS) {
  const byType = Object.fromEntries(QUESTION_TYPES.map((type) => [type, typeSchema(type, limits)])) as {
    [T in QuestionType]: ReturnType<typeof typeSchema<T>>
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
