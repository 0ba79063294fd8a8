import * as v from 'valibot'
import { defineEntity } from '../entity'
import { Tags, fieldPath } from './common'
import { DIFFICULTIES, GRADES } from './constants'
import { QUESTION_TYPES } from './question-types'
import { Question } from './question'

const code = v.optional(v.pipe(v.string(), v.trim(), v.maxLength(60, 'validation.max_length')), '')
const TOPIC = ['grade_id', 'subject_id', 'standard_id', 'descriptor_id'] as const

/**
 * Classification of a bank question (seed 001 §3): grade (1–16), subject, standard and descriptor form its topic,
 * complete or absent ("topics need all fields"); tags; batch id and curriculum.
 */
export const BankClassification = v.pipe(
  v.object({
    difficulty: v.optional(v.picklist(DIFFICULTIES, 'validation.picklist'), 'easy'),
    tags: Tags,
    grade_id: v.optional(v.nullable(v.picklist(GRADES, 'validation.tms.grade')), null),
    subject_id: code,
    standard_id: code,
    descriptor_id: code,
    batch_id: code,
    curriculum: code,
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const c = dataset.value
    const filled = (k: (typeof TOPIC)[number]) => (k === 'grade_id' ? c.grade_id !== null : c[k] !== '')
    if (TOPIC.some(filled)) for (const k of TOPIC) if (!filled(k)) addIssue({ message: 'validation.tms.topic_incomplete', path: fieldPath(c, k) })
  }),
)

/** A bank item: a question of any type (default `text`) and its classification, validated together. */
export const BankItemInput = v.pipe(v.looseObject({ type: v.optional(v.string(), 'text') }), v.intersect([Question, BankClassification]))
export type BankItemInput = v.InferOutput<typeof BankItemInput>

/** Manual classification of many bank questions at once: at least one type, and a complete topic. */
export const BankClassify = v.object({
  types: v.pipe(
    v.array(v.picklist(QUESTION_TYPES, 'validation.picklist')),
    v.minLength(1, 'validation.tms.classify_types'),
    v.maxLength(QUESTION_TYPES.length, 'validation.max_items'),
  ),
  batch_id: code,
  // D1 binds at most 100 parameters per statement.
  ids: v.optional(v.pipe(v.array(v.string()), v.maxLength(80, 'validation.max_items')), []),
  grade_id: v.picklist(GRADES, 'validation.tms.grade'),
  subject_id: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.tms.topic_incomplete'), v.maxLength(60, 'validation.max_length')),
  standard_id: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.tms.topic_incomplete'), v.maxLength(60, 'validation.max_length')),
  descriptor_id: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.tms.topic_incomplete'), v.maxLength(60, 'validation.max_length')),
  curriculum: code,
})
export type BankClassify = v.InferOutput<typeof BankClassify>

/** A bank item as stored and answered; `statement_text` is the statement without markup (list and search). */
export type BankItem = {
  id: string
  realm: string
  type: string
  statement: string
  statement_text: string
  comment: string
  score: number
  required: boolean
  shuffle: boolean
  partial_score: boolean
  categories: string[]
  media_type: string
  media_url: string
  options: unknown
  extra_fields: Record<string, unknown>
  difficulty: string
  tags: string[]
  grade_id: number | null
  subject_id: string
  standard_id: string
  descriptor_id: string
  batch_id: string
  curriculum: string
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

export const bankEntity = defineEntity<BankItem>({
  name: 'tms_question_bank',
  table: 'tms_question_bank',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    type: { type: 'text', sort: true, list: true, filter: 'eq' },
    statement: { type: 'text' },
    statement_text: { type: 'text', search: true, sort: true, list: true },
    comment: { type: 'text' },
    score: { type: 'real', sort: true, list: true },
    required: { type: 'bool' },
    shuffle: { type: 'bool' },
    partial_score: { type: 'bool' },
    categories: { type: 'json', list: true },
    media_type: { type: 'text' },
    media_url: { type: 'text' },
    options: { type: 'json' },
    extra_fields: { type: 'json' },
    difficulty: { type: 'text', sort: true, list: true, filter: 'eq' },
    tags: { type: 'json', list: true },
    grade_id: { type: 'int', sort: true, list: true, filter: 'eq', nullable: true },
    subject_id: { type: 'text', sort: true, list: true, filter: 'eq' },
    standard_id: { type: 'text', sort: true, list: true, filter: 'eq' },
    descriptor_id: { type: 'text', sort: true, list: true, filter: 'eq' },
    batch_id: { type: 'text', sort: true, list: true, filter: 'eq' },
    curriculum: { type: 'text', sort: true, list: true, filter: 'eq' },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    created_by: { type: 'text', list: true },
    updated_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: '-updated_at',
})
