import * as v from 'valibot'
import { defineEntity } from '../entity'
import { Description, Id, Instant } from '../tms/common'
import { PUBLICATION_TYPES, PUBLISH_CLOCK_TOLERANCE_MS } from '../tms/constants'
import {
  PUBLICATION_STATUSES,
  PUBLICATION_TARGETS,
  PUBLISHED_FIELDS,
  PublicationInput,
  STAMPS_FIELDS,
  publicationDateProblems,
  type Published,
  type Stamps,
} from '../publication'

/**
 * Surveys (seed 001 §3 "Survey", §4, §5 "Surveys"; issue 19): a survey model teachers edit, and surveys published
 * from it (a copy of its questions and texts) with targets like a task's. Question types: single choice, multiple
 * choice, free text and a 1–5 scale (Likert); none has a score or a correct option.
 */
export const SURVEY_QUESTION_TYPES = ['single', 'multi', 'text', 'scale'] as const
export type SurveyQuestionType = (typeof SURVEY_QUESTION_TYPES)[number]

/** The scale question's points: 1 (lowest) to 5 (highest). */
export const SCALE_POINTS = [1, 2, 3, 4, 5] as const
/** Choices of single and multi questions. */
export const SURVEY_OPTIONS = { min: 2, max: 20 } as const
/** Longest free-text answer. */
export const SURVEY_TEXT_MAX = 2000

const Statement = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.minLength(3, 'validation.survey.statement_min'),
  v.maxLength(1000, 'validation.max_length'),
)
const OptionText = v.pipe(
  v.string('validation.required'),
  v.trim(),
  v.minLength(1, 'validation.survey.option_empty'),
  v.maxLength(200, 'validation.max_length'),
)

export const SurveyQuestion = v.pipe(
  v.object({
    id: Id,
    type: v.picklist(SURVEY_QUESTION_TYPES, 'validation.picklist'),
    statement: Statement,
    /** Must be answered (every question is when the survey `is_required`). */
    required: v.optional(v.boolean('validation.boolean'), false),
    /** The choices of single and multi (2–20, no duplicates); empty for text and scale. */
    options: v.optional(v.pipe(v.array(OptionText), v.maxLength(SURVEY_OPTIONS.max, 'validation.max_items')), []),
  }),
  v.forward(
    v.check((q) => q.type === 'text' || q.type === 'scale' || q.options.length >= SURVEY_OPTIONS.min, 'validation.survey.options_min'),
    ['options'],
  ),
  v.forward(
    v.check((q) => new Set(q.options.map((o) => o.toLowerCase())).size === q.options.length, 'validation.survey.option_duplicate'),
    ['options'],
  ),
  v.transform((q) => (q.type === 'text' || q.type === 'scale' ? { ...q, options: [] as string[] } : q)),
)
export type SurveyQuestion = v.InferOutput<typeof SurveyQuestion>

/** A survey model as the editor sends it (seed 001 §3: title, description, questions, is_required, confirmation_message). */
export const SurveyInput = v.object({
  title: v.pipe(v.string('validation.required'), v.trim(), v.minLength(3, 'validation.tms.title_min'), v.maxLength(200, 'validation.max_length')),
  description: v.optional(Description(2000), ''),
  questions: v.optional(
    v.pipe(
      v.array(SurveyQuestion),
      v.maxLength(100, 'validation.max_items'),
      v.check((qs) => new Set(qs.map((q) => q.id)).size === qs.length, 'validation.survey.question_duplicate'),
    ),
    [],
  ),
  is_required: v.optional(v.boolean('validation.boolean'), false),
  confirmation_message: v.optional(Description(500), ''),
})
export type SurveyInput = v.InferOutput<typeof SurveyInput>
export type SurveyDraft = v.InferInput<typeof SurveyInput>

/** What a new model starts with (and what "reset to defaults" restores). */
export const SURVEY_DEFAULTS: SurveyDraft = { title: '', description: '', questions: [], is_required: false, confirmation_message: '' }

/** The fields a published survey copies from its model. */
export const SURVEY_CONTENT_FIELDS = [
  'title',
  'description',
  'questions',
  'is_required',
  'confirmation_message',
] as const satisfies readonly (keyof SurveyInput)[]

export type SurveyModel = SurveyInput &
  Stamps & {
    type: 'model'
    question_count: number
    /** Surveys published from this model (list and get answers); a model with any is blocked from changes. */
    published_count?: number
  }

const contentFields = {
  title: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
  description: { type: 'text', search: true },
  questions: { type: 'json' },
  question_count: { type: 'int', sort: true, list: true },
  is_required: { type: 'bool', list: true, filter: 'eq' },
  confirmation_message: { type: 'text' },
  ...STAMPS_FIELDS,
} as const

export const surveyModelEntity = defineEntity<SurveyModel>({
  name: 'survey_model',
  table: 'survey_model',
  key: 'id',
  realmColumn: 'realm',
  fields: { id: { type: 'text', list: true }, realm: { type: 'text' }, type: { type: 'text', list: true }, ...contentFields, published_count: { type: 'int' } },
  defaultOrder: '-updated_at',
})

export const SURVEY_STATUSES = PUBLICATION_STATUSES
export type SurveyStatus = (typeof SURVEY_STATUSES)[number]

export type Survey = SurveyInput & Published & { question_count: number; answer_count: number }

export const surveyEntity = defineEntity<Survey>({
  name: 'survey_survey',
  table: 'survey_survey_view',
  key: 'id',
  realmColumn: 'realm',
  fields: { ...PUBLISHED_FIELDS, answer_count: { type: 'int', sort: true, list: true }, ...contentFields },
  defaultOrder: '-publish_at',
})

/**
 * Publication of a survey model: exactly a lesson's (rooms, room members or room groups, a start defaulting to now,
 * an optional end), so the same schema and the same publish form serve both.
 */
export const SurveyPublishInput = PublicationInput
export type SurveyPublishInput = v.InferOutput<typeof SurveyPublishInput>
export const surveyDateProblems = publicationDateProblems

const SurveyUpdateObject = v.object({
  publish_at: v.optional(Instant),
  /** null: no end (the survey stays open). */
  expire_at: v.optional(v.nullable(Instant)),
  /** Present: the targets are replaced by `rooms`, `members` or `groups` (absent: they stay). */
  publication_type: v.optional(v.picklist(PUBLICATION_TYPES, 'validation.picklist')),
  rooms: PUBLICATION_TARGETS.rooms,
  members: PUBLICATION_TARGETS.members,
  groups: PUBLICATION_TARGETS.groups,
})

/**
 * Changes to a published survey (issue 19): its dates and its targets. Its questions stay (they come from the model,
 * which is blocked while published). With `publication_type` the targets' selection is required, as at publication.
 */
export const SurveyUpdate = v.pipe(
  SurveyUpdateObject,
  v.forward(
    v.check((p) => p.publication_type !== 'all' || p.rooms.length > 0, 'validation.tms.target_required'),
    ['rooms'],
  ),
  v.forward(
    v.check((p) => p.publication_type !== 'members' || p.members.length > 0, 'validation.tms.target_required'),
    ['members'],
  ),
  v.forward(
    v.check((p) => p.publication_type !== 'group' || p.groups.length > 0, 'validation.tms.target_required'),
    ['groups'],
  ),
)
export type SurveyUpdate = v.InferOutput<typeof SurveyUpdate>

/**
 * The date rules of a change (seed 001 §5, the task's messages): a changed start or end is not in the past (the
 * start with the publish form's clock tolerance), the end after the start, and the start of a survey that already has
 * answers stays (moving it would hide an answered survey until then). Only changed dates are held to "not in the past",
 * so an open survey keeps its past start.
 */
export function surveyUpdateProblems(
  before: { publish_at: string; expire_at: string | null; answer_count: number },
  after: { publish_at: string; expire_at: string | null },
  now: number,
): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = []
  const publishChanged = Date.parse(after.publish_at) !== Date.parse(before.publish_at)
  const expireChanged = (after.expire_at === null ? null : Date.parse(after.expire_at)) !== (before.expire_at === null ? null : Date.parse(before.expire_at))
  if (publishChanged && before.answer_count > 0) out.push({ field: 'publish_at', message: 'validation.survey.start_answered' })
  else if (publishChanged && Date.parse(after.publish_at) < now - PUBLISH_CLOCK_TOLERANCE_MS)
    out.push({ field: 'publish_at', message: 'validation.tms.publish_in_past' })
  const order = publicationDateProblems(after)
  if (order.length) out.push(...order)
  else if (expireChanged && after.expire_at !== null && Date.parse(after.expire_at) <= now)
    out.push({ field: 'expire_at', message: 'validation.tms.expire_in_past' })
  return out
}

/** One answer value: a choice index (single), choice indexes (multi), text, or a scale point. */
export type SurveyValue = number | number[] | string
export const SurveyAnswerInput = v.object({
  answers: v.pipe(
    v.record(
      Id,
      v.union(
        [v.number('validation.number'), v.pipe(v.array(v.number('validation.number')), v.maxLength(SURVEY_OPTIONS.max)), v.string()],
        'validation.survey.invalid_answer',
      ),
    ),
    v.check((r) => Object.keys(r).length <= 100, 'validation.max_items'),
  ),
})
export type SurveyAnswerInput = v.InferOutput<typeof SurveyAnswerInput>

const isIndex = (x: unknown, n: number) => typeof x === 'number' && Number.isInteger(x) && x >= 0 && x < n

/** Whether a value answers the question (an empty text or an empty multi selection does not). */
export function answered(value: SurveyValue | undefined): boolean {
  if (value === undefined) return false
  if (typeof value === 'string') return value.trim() !== ''
  if (Array.isArray(value)) return value.length > 0
  return true
}

/**
 * The answer rules (seed 001 §5; issue 19): a required question (or any question of a required survey) must be
 * answered; each value must fit its question; answers to unknown questions are refused. Answers the problems and
 * the answers as stored (texts trimmed, multi choices sorted, unanswered questions left out).
 */
export function surveyAnswerProblems(
  survey: { questions: SurveyQuestion[]; is_required: boolean },
  answers: Record<string, SurveyValue>,
): { problems: { field: string; message: string; value: unknown }[]; stored: Record<string, SurveyValue> } {
  const problems: { field: string; message: string; value: unknown }[] = []
  const stored: Record<string, SurveyValue> = {}
  const known = new Set(survey.questions.map((q) => q.id))
  for (const key of Object.keys(answers))
    if (!known.has(key)) problems.push({ field: `answers.${key}`, message: 'validation.survey.unknown_question', value: key })
  for (const q of survey.questions) {
    const value = answers[q.id]
    const field = `answers.${q.id}`
    if (!answered(value)) {
      if (q.required || survey.is_required) problems.push({ field, message: 'validation.survey.required_answer', value: null })
      continue
    }
    const ok =
      q.type === 'single'
        ? isIndex(value, q.options.length)
        : q.type === 'multi'
          ? Array.isArray(value) && new Set(value).size === value.length && value.every((x) => isIndex(x, q.options.length))
          : q.type === 'scale'
            ? typeof value === 'number' && (SCALE_POINTS as readonly number[]).includes(value)
            : typeof value === 'string' && value.trim().length <= SURVEY_TEXT_MAX
    if (!ok) problems.push({ field, message: 'validation.survey.invalid_answer', value })
    else stored[q.id] = typeof value === 'string' ? value.trim() : Array.isArray(value) ? [...value].sort((a, b) => a - b) : value
  }
  return { problems, stored }
}

/** The per-question figures of a result: counts per choice (or scale point), the respondents of the question. */
export interface SurveyQuestionResult {
  id: string
  type: SurveyQuestionType
  statement: string
  /** Respondents who answered this question. */
  answered: number
  /** Choices (single, multi) or scale points, with counts and percentages of `answered` (0–100). */
  options: { label: string; count: number; percent: number }[]
  /** Scale: the mean point (null without answers). */
  mean: number | null
  /** Text: the latest texts (at most 50). */
  texts: string[]
}

/** Percent of a part in a whole, one decimal, 0 for an empty whole; capped at 100. */
export const percentOf = (part: number, whole: number) => (whole > 0 ? Math.min(100, Math.round((part / whole) * 1000) / 10) : 0)
