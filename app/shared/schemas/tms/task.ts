import * as v from 'valibot'
import { defineEntity } from '../entity'
import { ExtraValues } from '../user'
import { CategoryLinks, Id, Instant } from './common'
import { PUBLISH_CLOCK_TOLERANCE_MS, type PublicationType, type TaskStatus } from './constants'
import { PUBLICATION_TARGETS, publicationTargetCheck } from '../publication'
import { INFORMATIVE_TYPES, type QuestionType } from './question-types'

/** Publication of a model as a task (seed 001 §3 "Publication", §5 "Task and model"): what the publish form sends. */
export const PublishInput = v.pipe(
  v.object({
    model_id: Id,
    ...PUBLICATION_TARGETS,
    /** Absent: now. */
    publish_at: v.optional(Instant),
    /** Absent: publication plus the realm's default deadline and expire offset. */
    expire_at: v.optional(Instant),
    display_answer_at: v.optional(v.nullable(Instant), null),
    /** Compulsory correction (draft correction) date. */
    correct_at: v.optional(v.nullable(Instant), null),
    show_timer: v.optional(v.boolean('validation.boolean'), false),
    /** Off: the task is paused (seed 001 §4). */
    scheduling_enabled: v.optional(v.boolean('validation.boolean'), true),
    categories: CategoryLinks,
    /** Values of the realm's extra fields of tasks, by key (required ones are checked by the API). */
    extra: v.optional(ExtraValues, {}),
  }),
  publicationTargetCheck(),
)
export type PublishInput = v.InferOutput<typeof PublishInput>

/** Changes to a publication: dates, timer, scheduling (pause and resume), categories, or moving to the newest version. */
export const TaskUpdate = v.object({
  publish_at: v.optional(Instant),
  expire_at: v.optional(Instant),
  display_answer_at: v.optional(v.nullable(Instant)),
  correct_at: v.optional(v.nullable(Instant)),
  show_timer: v.optional(v.boolean('validation.boolean')),
  scheduling_enabled: v.optional(v.boolean('validation.boolean')),
  categories: v.optional(CategoryLinks),
  extra: v.optional(ExtraValues),
  /** Accepts the update offer: the task moves to the model's newest version. */
  update_version: v.optional(v.boolean('validation.boolean')),
})
export type TaskUpdate = v.InferOutput<typeof TaskUpdate>

/** What the publication rules need to know beyond the form. */
export interface PublicationContext {
  now: number
  maxScheduleDays: number
  model: { question_types: QuestionType[]; token: boolean; min_execution_time: number }
  /** Every category of the realm: required ones must be chosen. */
  categories: { id: string; name: string; required: boolean; parent_id: string | null; selectable: boolean; enabled: boolean; multi_selection: boolean }[]
  /** Fields an update changes (`model_version` when it moves to the newest version); absent at publication. */
  changed?: Set<string>
}

export interface Publication {
  publication_type: PublicationType
  publish_at: string
  expire_at: string
  display_answer_at: string | null
  correct_at: string | null
  categories: string[]
}

/**
 * The rules of seed 001 §5 that need the clock, the realm and the model: dates after now and in order, not beyond
 * the maximum schedule date, at least one question, no members publication of token models, required categories,
 * and room for the minimum execution time. Field → message key; the form and the API run the same function.
 */
const DATE_FIELDS = ['publish_at', 'expire_at', 'display_answer_at', 'correct_at'] as const

export function publicationProblems(p: Publication, ctx: PublicationContext): { field: string; message: string; value?: unknown }[] {
  const out: { field: string; message: string; value?: unknown }[] = []
  const at = (s: string | null) => (s ? Date.parse(s) : NaN)
  const changed = (f: string) => !ctx.changed || ctx.changed.has(f)
  // A date that is not an instant (typed text the form could not read) is named as such; the rules comparing dates
  // would otherwise misname it ("expires before it is published").
  const unreadable = new Set(DATE_FIELDS.filter((f) => p[f] && !v.is(Instant, p[f])))
  for (const f of unreadable) out.push({ field: f, message: 'validation.date' })
  const publish = at(p.publish_at)
  const expire = at(p.expire_at)
  if (!unreadable.has('publish_at')) {
    if (changed('publish_at') && publish < ctx.now - PUBLISH_CLOCK_TOLERANCE_MS) out.push({ field: 'publish_at', message: 'validation.tms.publish_in_past' })
    if (changed('publish_at') && publish > ctx.now + ctx.maxScheduleDays * 86_400_000)
      out.push({ field: 'publish_at', message: 'validation.tms.beyond_max_schedule', value: ctx.maxScheduleDays })
  }
  const bothRead = !unreadable.has('publish_at') && !unreadable.has('expire_at')
  if (bothRead && !(expire > publish)) out.push({ field: 'expire_at', message: 'validation.tms.expire_before_publish' })
  else if (bothRead && changed('expire_at') && expire <= ctx.now) out.push({ field: 'expire_at', message: 'validation.tms.expire_in_past' })
  for (const f of ['display_answer_at', 'correct_at'] as const) {
    if (p[f] !== null && !unreadable.has(f) && changed(f) && !(at(p[f]) > Math.max(publish, ctx.now - PUBLISH_CLOCK_TOLERANCE_MS)))
      out.push({ field: f, message: `validation.tms.${f}_after_publish` })
  }
  const content = changed('model_version')
  if (content && !ctx.model.question_types.some((t) => !INFORMATIVE_TYPES.includes(t))) out.push({ field: 'model_id', message: 'validation.tms.no_question' })
  if ((content || changed('publication_type')) && p.publication_type === 'members' && ctx.model.token)
    out.push({ field: 'publication_type', message: 'validation.tms.members_token' })
  const minutes = ctx.model.min_execution_time
  if ((content || changed('publish_at') || changed('expire_at')) && minutes > 0 && expire - publish < minutes * 60_000) {
    out.push({ field: 'expire_at', message: 'validation.tms.min_execution_time', value: minutes })
  }
  if (content || changed('categories')) {
    const chosen = new Set(p.categories)
    for (const c of ctx.categories.filter((c) => c.required)) {
      const satisfied = chosen.has(c.id) || ctx.categories.some((x) => x.parent_id === c.id && chosen.has(x.id))
      if (!satisfied) out.push({ field: 'categories', message: 'validation.tms.required_category', value: c.name })
    }
  }
  return out
}

/** Date status of a task (seed 001 §4): paused when scheduling is off, else by its dates. */
export function taskStatus(t: { publish_at: string; expire_at: string; scheduling_enabled: boolean }, now = Date.now()): TaskStatus {
  if (!t.scheduling_enabled) return 'paused'
  if (Date.parse(t.expire_at) <= now) return 'expired'
  if (Date.parse(t.publish_at) > now) return 'scheduled'
  return 'published'
}

/** A published task as the API answers it (list rows come from the view with its status and version offer). */
export type Task = {
  id: string
  realm: string
  model_id: string
  model_version: number
  /** The model's newest version; greater than model_version means an update is offered. */
  latest_version: number
  newer_version: boolean
  title: string
  kind: string
  publication_type: PublicationType
  publish_at: string
  expire_at: string
  display_answer_at: string | null
  correct_at: string | null
  show_timer: boolean
  scheduling_enabled: boolean
  token: boolean
  categories: string[]
  extra: Record<string, string>
  status: TaskStatus
  rooms: string
  created_at: string
  created_by: string
  updated_at: string
  updated_by: string
}

/** The task list's view (migration 0007): status computed from the clock, the model's newest version, room names. */
export const taskEntity = defineEntity<Task>({
  name: 'tms_task',
  table: 'tms_task_view',
  key: 'id',
  realmColumn: 'realm',
  fields: {
    id: { type: 'text', list: true },
    realm: { type: 'text' },
    model_id: { type: 'text', list: true, filter: 'eq' },
    model_version: { type: 'int', list: true },
    latest_version: { type: 'int', list: true },
    newer_version: { type: 'bool', list: true, filter: 'eq' },
    title: { type: 'text', search: true, sort: true, list: true },
    kind: { type: 'text', list: true, filter: 'eq' },
    publication_type: { type: 'text', list: true, filter: 'eq' },
    publish_at: { type: 'text', sort: true, list: true, filter: 'date' },
    expire_at: { type: 'text', sort: true, list: true, filter: 'date' },
    display_answer_at: { type: 'text', list: true },
    correct_at: { type: 'text', list: true },
    show_timer: { type: 'bool', list: true },
    scheduling_enabled: { type: 'bool', list: true },
    token: { type: 'bool', list: true },
    categories: { type: 'json', list: true },
    extra: { type: 'json' },
    status: { type: 'text', sort: true, list: true, filter: 'eq' },
    rooms: { type: 'text', search: true, list: true },
    created_at: { type: 'text', sort: true, list: true },
    created_by: { type: 'text', list: true, filter: 'eq' },
    updated_at: { type: 'text', sort: true, list: true },
    updated_by: { type: 'text', list: true },
  },
  defaultOrder: '-publish_at',
})
