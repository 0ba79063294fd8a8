import * as v from 'valibot'
import type { FieldDef } from './entity'
import { Id, Instant, fieldPath } from './tms/common'
import { PUBLICATION_TYPES, type PublicationType } from './tms/constants'

/**
 * Publication (seed 001 §3 "Publication"): a model copied to rooms, room members or room groups between two dates.
 * Tasks, lessons and surveys are published kinds; what they share is declared here once (the targets' schemas and
 * rule, the lesson and survey publish input, date rule and status, the stamps and list fields of a publication, the
 * student lists' paging). A new published kind spreads these pieces into its own schema and entity.
 */

const Member = v.object({
  room: Id,
  nick: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(120, 'validation.max_length')),
})
const unique =
  <T>(key: (x: T) => string) =>
  (xs: T[]) =>
    new Set(xs.map(key)).size === xs.length
const IdTargets = (max: number) =>
  v.optional(
    v.pipe(
      v.array(Id),
      v.maxLength(max, 'validation.max_items'),
      v.check(
        unique((x) => x),
        'validation.tms.target_duplicate',
      ),
    ),
    [],
  )

/** The targets' entries of a publication form: the type (rooms, members or groups) and the lists of each. */
export const PUBLICATION_TARGETS = {
  publication_type: v.optional(v.picklist(PUBLICATION_TYPES, 'validation.picklist'), 'all'),
  rooms: IdTargets(200),
  members: v.optional(
    v.pipe(
      v.array(Member),
      v.maxLength(2000, 'validation.max_items'),
      v.check(
        unique((m) => `${m.room}/${m.nick}`),
        'validation.tms.target_duplicate',
      ),
    ),
    [],
  ),
  groups: IdTargets(100),
}

/** The targets of a publication as the API reads them. */
export type PublicationTargetsInput = { publication_type: PublicationType; rooms: string[]; members: { room: string; nick: string }[]; groups: string[] }

/** The targets of the chosen publication type must not be empty (tasks, lessons and surveys). */
export const publicationTargetCheck = <T extends { publication_type: PublicationType; rooms: string[]; members: unknown[]; groups: string[] }>() =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const p = dataset.value
    const field = { all: 'rooms', members: 'members', group: 'groups' }[p.publication_type]
    const targets = { all: p.rooms, members: p.members, group: p.groups }[p.publication_type]
    if (!targets.length) addIssue({ message: 'validation.tms.target_required', path: fieldPath(p, field) })
  })

/**
 * Publication of a model without rules of its own (lessons, surveys): its targets, a start defaulting to now and an
 * optional end. (A task's publication adds its deadline, correction dates and categories: `PublishInput`.)
 */
export const PublicationInput = v.pipe(
  v.object({
    model_id: Id,
    ...PUBLICATION_TARGETS,
    /** Absent: now. */
    publish_at: v.optional(Instant),
    /** Absent or null: the publication stays available. */
    expire_at: v.optional(v.nullable(Instant), null),
  }),
  publicationTargetCheck(),
)
export type PublicationInput = v.InferOutput<typeof PublicationInput>

/** Dates of a publication: the end after the start. */
export function publicationDateProblems(p: { publish_at: string; expire_at: string | null }): { field: string; message: string }[] {
  return p.expire_at && Date.parse(p.expire_at) <= Date.parse(p.publish_at) ? [{ field: 'expire_at', message: 'validation.tms.expire_before_publish' }] : []
}

/** Date status of a publication with an optional end: scheduled before its start, expired after its end. */
export const PUBLICATION_STATUSES = ['scheduled', 'published', 'expired'] as const
export type PublicationStatus = (typeof PUBLICATION_STATUSES)[number]

/** The stamps of a model or a publication as the API answers them. */
export type Stamps = { id: string; realm: string; created_at: string; created_by: string; updated_at: string; updated_by: string }

/** What every published lesson or survey carries besides its content copy. */
export type Published = Stamps & {
  model_id: string
  publication_type: PublicationType
  publish_at: string
  expire_at: string | null
  status: PublicationStatus
  /** The names of the rooms reached (the view's). */
  rooms: string
}

/** The list fields of a publication's view (spread first into a published kind's entity). */
export const PUBLISHED_FIELDS = {
  id: { type: 'text', list: true },
  realm: { type: 'text' },
  model_id: { type: 'text', list: true, filter: 'eq' },
  publication_type: { type: 'text', list: true, filter: 'eq' },
  publish_at: { type: 'text', sort: true, list: true, filter: 'date' },
  expire_at: { type: 'text', sort: true, list: true, filter: 'date', nullable: true },
  status: { type: 'text', sort: true, list: true, filter: 'eq' },
  rooms: { type: 'text', search: true, list: true },
} as const satisfies Record<string, FieldDef>

/** The stamp fields of a model or a publication (spread after its content fields). */
export const STAMPS_FIELDS = {
  created_at: { type: 'text', sort: true, list: true, filter: 'date' },
  created_by: { type: 'text', list: true, filter: 'eq' },
  updated_at: { type: 'text', sort: true, list: true, filter: 'date' },
  updated_by: { type: 'text', list: true },
} as const satisfies Record<string, FieldDef>

const PageNumber = (min: number, max: number, fallback: string) =>
  v.optional(
    v.pipe(v.string(), v.transform(Number), v.integer('validation.integer'), v.minValue(min, 'validation.min_value'), v.maxValue(max, 'validation.max_value')),
    fallback,
  )

/** Paging of the student lists of publications (lessons, surveys): 1–100 rows from an offset. */
export const StudentPaging = v.object({ limit: PageNumber(1, 100, '25'), offset: PageNumber(0, 100_000, '0') })
