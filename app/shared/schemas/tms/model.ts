import * as v from 'valibot'
import { defineEntity } from '../entity'
import { CategoryLinks, Description, Flag, Id, Minutes, Tags, fieldPath } from './common'
import { MODEL_FLAGS, MODEL_KINDS } from './constants'
import { Question } from './question'

/** Task model (seed 001 §3 "Task model / task"): what the editor sends and the API validates. */
export const ModelInput = v.pipe(
  v.object({
    title: v.pipe(v.string('validation.required'), v.trim(), v.minLength(3, 'validation.tms.title_min'), v.maxLength(200, 'validation.max_length')),
    type: v.optional(v.literal('model', 'validation.picklist'), 'model'),
    kind: v.optional(v.picklist(MODEL_KINDS, 'validation.picklist'), 'activity'),
    description: v.optional(Description(2000), ''),
    tags: Tags,
    categories: CategoryLinks,
    questions: v.optional(v.pipe(v.array(Question), v.maxLength(200, 'validation.max_items')), []),
    style: v.optional(v.object({ background_color: v.optional(v.pipe(v.string(), v.regex(/^(#[0-9a-fA-F]{6})?$/, 'validation.tms.color')), '') }), {
      background_color: '',
    }),
    parent_id: v.optional(v.nullable(Id), null),
    min_execution_time: Minutes,
    max_execution_time: Minutes,
    /** Students enter a task token to open it (seed 001 §3 "token"). */
    token: Flag,
    audio_question: Flag,
    essay_transcription: Flag,
    verify_answers: Flag,
    disable_answer_review: Flag,
    auto_draft: Flag,
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const m = dataset.value
    if (m.min_execution_time && m.max_execution_time && m.max_execution_time <= m.min_execution_time) {
      addIssue({ message: 'validation.tms.execution_time_order', path: fieldPath(m, 'max_execution_time') })
    }
    const ids = m.questions.map((q) => q.id).filter(Boolean)
    if (new Set(ids).size !== ids.length) addIssue({ message: 'validation.tms.question_id_duplicate', path: fieldPath(m, 'questions') })
  }),
)
export type ModelInput = v.InferOutput<typeof ModelInput>
export type ModelDraft = v.InferInput<typeof ModelInput>

/** The content fields of a model, in the order exports write them. */
export const MODEL_CONTENT_FIELDS = [
  'title',
  'type',
  'kind',
  'description',
  'tags',
  'categories',
  'style',
  'min_execution_time',
  'max_execution_time',
  'token',
  ...MODEL_FLAGS,
  'questions',
] as const

/** A model as the API answers it. */
export type Model = Omit<ModelInput, 'parent_id'> & {
  id: string
  realm: string
  parent_id: string | null
  version: number
  question_count: number
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
  /** Tasks published from this model (list answers). */
  published_count?: number
}

export const modelEntity = defineEntity<Model>({
  name: 'tms_model',
  table: 'tms_model',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    title: { type: 'text', search: true, sort: true, list: true, filter: 'like' },
    type: { type: 'text', list: true },
    kind: { type: 'text', sort: true, list: true, filter: 'eq' },
    description: { type: 'text', search: true },
    tags: { type: 'json', list: true },
    categories: { type: 'json', list: true },
    questions: { type: 'json' },
    style: { type: 'json' },
    parent_id: { type: 'text', list: true, filter: 'eq' },
    min_execution_time: { type: 'int' },
    max_execution_time: { type: 'int' },
    token: { type: 'bool', list: true, filter: 'eq' },
    audio_question: { type: 'bool' },
    essay_transcription: { type: 'bool' },
    verify_answers: { type: 'bool' },
    disable_answer_review: { type: 'bool' },
    auto_draft: { type: 'bool' },
    version: { type: 'int', sort: true, list: true },
    question_count: { type: 'int', sort: true, list: true },
    created_at: { type: 'text', sort: true, list: true, filter: 'date' },
    created_by: { type: 'text', list: true, filter: 'eq' },
    updated_at: { type: 'text', sort: true, list: true, filter: 'date' },
    updated_by: { type: 'text', list: true },
    published_count: { type: 'int' },
  },
  defaultOrder: '-updated_at',
})

/** Export format (JSON that imports back identically): the content fields only, no ids of this realm's rows. */
export const MODEL_EXPORT_FORMAT = 'realm-console.tms-model'
export const ModelExport = v.object({
  format: v.literal(MODEL_EXPORT_FORMAT, 'validation.tms.export_format'),
  format_version: v.literal(1, 'validation.tms.export_format'),
  model: ModelInput,
})
export type ModelExport = v.InferOutput<typeof ModelExport>

/** The export document of a model. */
export function exportModel(model: Pick<Model, (typeof MODEL_CONTENT_FIELDS)[number]>): ModelExport {
  const content = Object.fromEntries(MODEL_CONTENT_FIELDS.map((f) => [f, model[f]])) as ModelExport['model']
  return { format: MODEL_EXPORT_FORMAT, format_version: 1, model: { ...content, parent_id: null } }
}
