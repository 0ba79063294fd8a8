import { Id } from '#shared/schemas/tms/common'
import { StudentPaging, publicationDateProblems, type PublicationTargetsInput } from '#shared/schemas/publication'
import { runBatch } from '../db/batch'
import { publicationTargets, publishedTargets, targetStatements, type PublishedTables, type TargetRow, type TaskTarget } from '../db/publication'
import type { Auth } from '../db/sessions'
import { apiError } from '../lib/errors'
import { guarded } from '../lib/guard'
import { auditBy, createdStamps, newId, nowIso, refuse, ruleError } from '../lib/tms'
import { type Ctx, parse, pathParam } from './context'

/**
 * The handlers' side of a published kind (tasks, lessons, surveys; `worker/db/publication.ts` holds its SQL). A kind
 * declares itself once (`PublishedKind`: its tables, its audit entity, its read and its 404) and its endpoints use
 * these steps: find one publication of the realm, write a new one with its targets and its audit record in one batch,
 * answer it with its targets, and serve a student list page.
 */
export interface PublishedKind<Row> {
  tables: PublishedTables
  /** The audit records' entity. */
  entity: 'tms_task' | 'lesson_lesson' | 'survey_survey'
  /** One publication of the realm as the API answers it (its view's row). */
  read: (db: D1Database, realm: string, id: string) => Promise<Row | null>
  /** The 404 of an unknown id: its cause and the noun of its message (`Lesson {id} was not found.`). */
  notFound: { cause: string; noun: string }
}

/** The publication of the path's id in the caller's realm, or 404 with the kind's cause. */
export async function requirePublication<Row>(c: Ctx, auth: Auth, kind: PublishedKind<Row>, raw = pathParam(c, 'id')): Promise<Row> {
  const found = await kind.read(c.env.DB, auth.realm, parse(Id, raw))
  if (!found) throw apiError(404, kind.notFound.cause, `${kind.notFound.noun} ${raw} was not found.`, 'id', raw)
  return found
}

/** A stored publication as its endpoints answer it: its row and its targets with names. */
export async function withTargets<Row>(c: Ctx, auth: Auth, kind: PublishedKind<Row>, id: string): Promise<Row & { targets: TaskTarget[] }> {
  const db = c.env.DB
  return { ...(await kind.read(db, auth.realm, id))!, targets: await publishedTargets(db, kind.tables, auth.realm, id) }
}

/** The targets of a publication input, checked against the realm (422 naming each unknown room, group or member). */
export async function checkedTargets(c: Ctx, auth: Auth, input: PublicationTargetsInput): Promise<TargetRow[]> {
  const targets = await publicationTargets(c.env.DB, auth.realm, input)
  refuse(targets.problems)
  return targets.rows
}

/** A new publication's id and stamps: spread into its row. */
export function newPublication(auth: Auth) {
  const id = newId()
  const now = nowIso()
  return { id, now, realm: auth.realm, stamps: createdStamps(auth.nick, now) }
}

/**
 * Writes a new publication in one batch — `before`, its row, its target rows, `after`, then its `publish` audit record
 * (`audit` plus the targets) — and answers it with its targets.
 */
export async function publishBatch<Row>(
  c: Ctx,
  auth: Auth,
  kind: PublishedKind<Row>,
  p: {
    id: string
    insert: D1PreparedStatement
    targets: TargetRow[]
    audit: Record<string, unknown>
    before?: D1PreparedStatement[]
    after?: D1PreparedStatement[]
  },
) {
  const db = c.env.DB
  await runBatch(db, [
    ...(p.before ?? []),
    p.insert,
    ...targetStatements(db, kind.tables, auth.realm, p.id, p.targets),
    ...(p.after ?? []),
    auditBy(c, auth, { action: 'publish', entity: kind.entity, entityId: p.id, after: { ...p.audit, targets: p.targets } }),
  ])
  return withTargets(c, auth, kind, p.id)
}

/** Refuses (422) a publication whose end is not after its start; each item carries the end, as the publish form shows it. */
export const refuseDates = (dates: { publish_at: string; expire_at: string | null }) =>
  refuse(publicationDateProblems(dates).map((p) => ruleError(p.field, p.message, dates.expire_at)))

/**
 * A student list endpoint of a published kind (any signed-in user): one page (`StudentPaging`) of the publications
 * reaching them, as `page` reads it.
 */
export const studentList = <R>(page: (db: D1Database, realm: string, nick: string, limit: number, offset: number) => Promise<{ rows: R[]; total: number }>) =>
  guarded({}, async (c, auth) => {
    const q = parse(StudentPaging, c.req.query())
    const { rows, total } = await page(c.env.DB, auth.realm, auth.nick, q.limit, q.offset)
    return c.json({ items: rows, total, limit: q.limit, offset: q.offset })
  })
