/** Inputs of the answer API (issue 17), validated with valibot; the teachers' answer list as a declared entity. */
import * as v from 'valibot'
import { defineEntity } from '#shared/schemas/entity'
import { Id } from '#shared/schemas/tms/common'
import { SkillGrade, TeacherMarks } from '#shared/schemas/tms/correction'

const Text = (max: number) => v.pipe(v.string('validation.required'), v.maxLength(max, 'validation.max_length'))

/** What a student answered to one question; which field counts depends on the question's type. */
export const AnswerValue = v.object({
  /** single, true_false: the chosen option's id. */
  option: v.optional(Id),
  /** multi: the chosen options' ids. */
  options: v.optional(v.pipe(v.array(Id), v.maxLength(26, 'validation.max_items'))),
  /** text, text_ai, essay, fill_letters, game: the written answer. */
  text: v.optional(Text(60_000)),
  /** fill_words (one word per gap, in order), cloud (the built sentence's words), order_sentences (in order). */
  words: v.optional(v.pipe(v.array(Text(500)), v.maxLength(100, 'validation.max_items'))),
  /** media, essay photos: the uploaded files' addresses. */
  files: v.optional(v.pipe(v.array(v.pipe(Text(2000), v.minLength(1, 'validation.required'))), v.maxLength(20, 'validation.max_items'))),
})
export type AnswerValue = v.InferOutput<typeof AnswerValue>

export const Answers = v.pipe(
  v.record(Id, AnswerValue),
  v.check((o) => Object.keys(o).length <= 200, 'validation.max_items'),
)

/** The id the student's device gives an answer (a UUID or similar): a delivery sent twice with it counts once. */
export const ClientId = v.pipe(v.string('validation.required'), v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'validation.id'))

export const OpenInput = v.object({
  /** The code of a token-protected task (seed 001 §3 "Task token"). */
  token: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(40, 'validation.max_length'))),
})

export const DraftInput = v.object({
  answer_id: ClientId,
  receipt: v.pipe(v.string('validation.required'), v.minLength(1, 'validation.required'), v.maxLength(1000, 'validation.max_length')),
  answers: Answers,
})

export const DeliverInput = v.object({
  ...DraftInput.entries,
  /** Work done offline: the time the device measured from opening the task to finishing it. */
  offline: v.optional(
    v.object({
      elapsed_ms: v.pipe(
        v.number('validation.number'),
        v.integer('validation.integer'),
        v.minValue(0, 'validation.min_value'),
        v.maxValue(366 * 86_400_000, 'validation.max_value'),
      ),
    }),
  ),
})

/** The essay's "Online Check": the essay question and the text to check (what the student has typed, not yet saved). */
export const CheckInput = v.object({
  question_id: Id,
  text: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(20_000, 'validation.max_length')),
})

export const OpinionInput = v.object({
  opinion: v.picklist(['agree', 'disagree'], 'validation.picklist'),
  comment: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(2000, 'validation.max_length')), ''),
})

export const STUDENT_FILTERS = ['all', 'class', 'group', 'tasks', 'delivered', 'expired', 'pending'] as const
export const StudentListQuery = v.object({
  filter: v.optional(v.picklist(STUDENT_FILTERS, 'validation.picklist'), 'all'),
  limit: v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer('validation.integer'), v.minValue(1, 'validation.min_value'), v.maxValue(100, 'validation.max_value')),
    '25',
  ),
  offset: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('validation.integer'), v.minValue(0, 'validation.min_value')), '0'),
})

export const CORRECTION_ACTIONS = ['save', 'finalize', 'request_adjustments'] as const
const Score = v.pipe(v.number('validation.number'), v.finite('validation.number'))
export const CorrectionInput = v.object({
  action: v.picklist(CORRECTION_ACTIONS, 'validation.picklist'),
  /** Per question id: the teacher's score (checked against the question's score and step). */
  scores: v.optional(
    v.pipe(
      v.record(Id, Score),
      v.check((o) => Object.keys(o).length <= 200, 'validation.max_items'),
    ),
    {},
  ),
  /** Per question id: the teacher's comment. */
  comments: v.optional(
    v.pipe(
      v.record(Id, Text(5000)),
      v.check((o) => Object.keys(o).length <= 200, 'validation.max_items'),
    ),
    {},
  ),
  final_considerations: v.optional(Text(10_000), ''),
  /** The teacher's edit of the AI comment (seed 001 §6). */
  ai_comment: v.optional(Text(10_000)),
  /** Per essay question id: the grade of each assessed skill (out of 10); the essay's score comes from them. */
  skill_grades: v.optional(
    v.pipe(
      v.record(
        Id,
        v.pipe(
          v.record(Id, SkillGrade),
          v.check((o) => Object.keys(o).length <= 50, 'validation.max_items'),
        ),
      ),
      v.check((o) => Object.keys(o).length <= 200, 'validation.max_items'),
    ),
    {},
  ),
  /** Per written question id: the teacher's marks (the question's whole list: `[]` clears it). */
  marks: v.optional(
    v.pipe(
      v.record(Id, TeacherMarks),
      v.check((o) => Object.keys(o).length <= 200, 'validation.max_items'),
    ),
    {},
  ),
  /** What the student should adjust (request_adjustments), kept in the history. */
  comment: v.optional(Text(5000), ''),
})

/** A row of the teachers' answer list (view tms_answer_view, migration 0033). */
export type AnswerRow = {
  id: string
  realm: string
  task_id: string
  task_title: string
  nick: string
  student_name: string
  room_id: string | null
  room_name: string
  status: string
  delivery: string | null
  offline: boolean
  opened_at: string
  finished_at: string | null
  delivered_at: string | null
  duration_seconds: number | null
  score: number | null
  max_score: number
  ai_revision: string | null
  corrected_by: string | null
  corrected_at: string | null
  created_at: string
  updated_at: string
}

export const answerEntity = defineEntity<AnswerRow>({
  name: 'tms_answer',
  table: 'tms_answer_view',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    task_id: { type: 'text', list: true, filter: 'eq' },
    task_title: { type: 'text', list: true, search: true },
    nick: { type: 'text', list: true, filter: 'eq' },
    student_name: { type: 'text', list: true, search: true },
    room_id: { type: 'text', list: true, filter: 'eq' },
    room_name: { type: 'text', list: true },
    status: { type: 'text', list: true, filter: 'eq' },
    delivery: { type: 'text', list: true, filter: 'eq' },
    offline: { type: 'bool', list: true },
    opened_at: { type: 'text', list: true },
    finished_at: { type: 'text', list: true },
    delivered_at: { type: 'text', list: true, sort: true, filter: 'date', nullable: true },
    duration_seconds: { type: 'int', list: true },
    score: { type: 'real', list: true },
    max_score: { type: 'real', list: true },
    ai_revision: { type: 'text', list: true },
    corrected_by: { type: 'text', list: true },
    corrected_at: { type: 'text', list: true },
    created_at: { type: 'text', list: true },
    updated_at: { type: 'text', list: true, sort: true },
  },
  defaultOrder: '-delivered_at',
})
