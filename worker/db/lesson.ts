/**
 * Lessons (issue 18): SQL of lesson models and published lessons, and `createLessonModel`, the one way a lesson
 * model is written — the API's create and the generator (genesis) call it, so both apply the same rules.
 */
import * as v from 'valibot'
import { formulaProblem, sanitizeRichText, type RichTextPolicy } from '#shared/rich-text'
import type { ErrorItem } from '#shared/schemas/error'
import { LessonInput, lessonEntity, lessonModelEntity, lessonProblems, storedDeck, type Lesson, type LessonModel } from '#shared/schemas/lesson/lesson'
import type { Slide } from '#shared/schemas/lesson/slide'
import { ApiError } from '../lib/errors'
import { newId, nowIso } from '../lib/tms'
import { decodeRow, insertStatement } from './entity-rows'
import { auditStatement } from './audit'
import { runBatch } from './batch'
import { reachSql } from './answer'
import { existingIds } from './ids'
import { publishedCounts } from './tms'
import { LESSON_TABLES, getPublished, publishedTargets, type TaskTarget } from './publication'

/** The published lessons' base table (the entity reads its view). */
export const lessonTable = { ...lessonEntity, table: 'lesson_lesson' }

const REACH = reachSql(LESSON_TABLES.targets, LESSON_TABLES.key)

export async function getLessonModel(db: D1Database, realm: string, id: string): Promise<LessonModel | null> {
  const row = await db.prepare('SELECT * FROM lesson_model WHERE id = ? AND realm = ?').bind(id, realm).first<Record<string, unknown>>()
  return row ? decodeRow(lessonModelEntity, row) : null
}

export const getLesson = (db: D1Database, realm: string, id: string): Promise<Lesson | null> => getPublished(db, LESSON_TABLES, lessonEntity, realm, id)

/** How many lessons were published from each model. */
export const lessonCounts = (db: D1Database, realm: string, ids: string[]) => publishedCounts(db, realm, ids, 'lesson_lesson')

const item = (field: string, message: string, value: unknown = null): ErrorItem => ({ field, cause: message.split('.').pop() ?? 'invalid', value, message })

/** A slide as stored: text sanitized; image sources only from https or the realm's files; formulas that KaTeX reads. */
function storedSlide(s: Slide, i: number, policy: RichTextPolicy, problems: ErrorItem[]): Slide {
  const objects = s.objects.map((o, j) => {
    const at = `slides.${i}.objects.${j}`
    if (o.kind === 'text') return { ...o, html: sanitizeRichText(o.html, policy) }
    if (o.kind === 'image' && !(o.src.startsWith('https://') || (policy.filesBase && o.src.startsWith(policy.filesBase))))
      problems.push(item(`${at}.src`, 'validation.lesson.image_source', o.src))
    if (o.kind === 'formula') {
      const bad = formulaProblem(o.latex)
      if (bad) problems.push(item(`${at}.latex`, `validation.question.${bad.problem}`, bad.detail))
    }
    return o
  })
  return { ...s, objects }
}

/**
 * The stored values of a lesson's content (seed 001 §5): rich text sanitized, empty slides removed (at least one
 * with content when there is a presentation), a persona for slides with an overlay, and every reference (categories,
 * assets, the video, task models, the persona) a row of the realm. Refuses with 422 and one item per problem.
 */
export async function preparedLesson(db: D1Database, realm: string, input: LessonInput, policy: RichTextPolicy) {
  const problems: ErrorItem[] = lessonProblems(input).map((p) => item(p.field, p.message))
  const deck = storedDeck(input.slides)
  const slides = deck.slides.map((s, i) => storedSlide(s, i, policy, problems))
  const [categories, assets, tasks, personas] = await Promise.all([
    existingIds(db, 'tms_category', realm, input.categories),
    existingIds(db, 'asset', realm, [...input.assets, ...(input.video ? [input.video] : [])]),
    existingIds(db, 'tms_model', realm, input.tasks),
    existingIds(db, 'persona', realm, input.persona_id ? [input.persona_id] : []),
  ])
  for (const id of input.categories) if (!categories.has(id)) problems.push(item('categories', 'validation.tms.unknown_category', id))
  for (const id of input.assets) if (!assets.has(id)) problems.push(item('assets', 'validation.lesson.unknown_asset', id))
  if (input.video && !assets.has(input.video)) problems.push(item('video', 'validation.lesson.unknown_asset', input.video))
  for (const id of input.tasks) if (!tasks.has(id)) problems.push(item('tasks', 'validation.tms.unknown_model', id))
  if (input.persona_id && !personas.has(input.persona_id)) problems.push(item('persona_id', 'validation.lesson.unknown_persona', input.persona_id))
  if (problems.length) throw new ApiError(422, problems)
  return {
    ...input,
    summary: sanitizeRichText(input.summary, policy),
    handout: sanitizeRichText(input.handout, policy),
    class_plan: { ...input.class_plan, html: sanitizeRichText(input.class_plan.html, policy) },
    slides,
    slide_count: slides.length,
  }
}

/** What the audit record keeps of a lesson: its fields, the long contents summarised. */
export function lessonAuditView(l: Record<string, unknown>): Record<string, unknown> {
  const { summary, handout, class_plan, slides, ...rest } = l
  const len = (x: unknown) => (typeof x === 'string' ? x.length : 0)
  return {
    ...rest,
    summary: len(summary),
    handout: len(handout),
    class_plan: class_plan && typeof class_plan === 'object' ? { duration: (class_plan as { duration: number }).duration } : class_plan,
    slides: Array.isArray(slides) ? slides.length : slides,
  }
}

export interface LessonWriter {
  db: D1Database
  realm: string
  nick: string
  policy?: RichTextPolicy
  requestId?: string
}

/**
 * Creates a lesson model from its content after the lesson rules (`preparedLesson`), with its audit record; answers
 * the stored model. The input is validated here too (valibot `LessonInput`), so callers other than the API (the
 * generator) cannot store what the API would refuse. Throws ApiError 422 with the envelope's items.
 */
export async function createLessonModel(w: LessonWriter, input: unknown, action = 'create'): Promise<LessonModel> {
  const parsed = v.safeParse(LessonInput, input)
  if (!parsed.success)
    throw new ApiError(
      422,
      parsed.issues.map((i) => item(v.getDotPath(i) ?? 'body', i.message, null)),
    )
  const values = await preparedLesson(w.db, w.realm, parsed.output, w.policy ?? {})
  const now = nowIso()
  const id = newId()
  const row = { ...values, id, realm: w.realm, type: 'lesson_model', created_at: now, created_by: w.nick, updated_at: now, updated_by: w.nick }
  await runBatch(w.db, [
    insertStatement(w.db, lessonModelEntity, row),
    auditStatement(w.db, { realm: w.realm, actor: w.nick, action, entity: 'lesson_model', entityId: id, after: lessonAuditView(row), requestId: w.requestId }),
  ])
  return (await getLessonModel(w.db, w.realm, id))!
}

/** A published lesson's room choices are those of tasks; its students are those it reaches. */
export interface StudentLessonRow {
  id: string
  title: string
  description: string
  language: string
  publish_at: string
  expire_at: string | null
  slide_count: number
}

/** The published (not scheduled, not expired) lessons reaching a student, the newest first. */
export async function studentLessons(db: D1Database, realm: string, nick: string, limit: number, offset: number) {
  const from = `FROM lesson_lesson_view t WHERE t.realm = ?1 AND t.status = 'published' AND EXISTS (${REACH})`
  const [page, count] = await db.batch([
    db
      .prepare(
        `SELECT t.id, t.title, t.description, t.language, t.publish_at, t.expire_at, t.slide_count ${from} ORDER BY t.publish_at DESC, t.id LIMIT ?3 OFFSET ?4`,
      )
      .bind(realm, nick, limit, offset),
    db.prepare(`SELECT COUNT(*) AS total ${from}`).bind(realm, nick),
  ])
  return { rows: page.results as StudentLessonRow[], total: Number((count.results[0] as { total: number }).total) }
}

/** True when the published lesson reaches the student. */
export async function lessonReaches(db: D1Database, realm: string, lessonId: string, nick: string): Promise<boolean> {
  const row = await db
    .prepare(`SELECT 1 FROM (${REACH.replaceAll('t.id', '?3')}) LIMIT 1`)
    .bind(realm, nick, lessonId)
    .first()
  return row !== null
}

/** The lesson's tasks a student may open: tasks published from its task models reaching them (published or expired). */
export async function lessonStudentTasks(db: D1Database, realm: string, nick: string, modelIds: string[]) {
  if (!modelIds.length) return []
  const { results } = await db
    .prepare(
      `SELECT t.id, t.title, t.kind, t.status, t.expire_at FROM tms_task_view t
       WHERE t.realm = ?1 AND t.status IN ('published', 'expired') AND t.model_id IN (SELECT value FROM json_each(?3)) AND EXISTS (${reachSql('tms_task_target', 'task_id')})
       ORDER BY t.status = 'expired', t.expire_at LIMIT 50`,
    )
    .bind(realm, nick, JSON.stringify(modelIds))
    .all<{ id: string; title: string; kind: string; status: string; expire_at: string }>()
  return results
}

/** A lesson's targets with room and group names (as a task's). */
export const lessonTargets = (db: D1Database, realm: string, id: string): Promise<TaskTarget[]> => publishedTargets(db, LESSON_TABLES, realm, id)
