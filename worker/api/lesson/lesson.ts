import { Hono } from 'hono'
import { ListQuery } from '#shared/schemas/common'
import { LESSON_CONTENT_FIELDS, LessonPublishInput, LessonUpdate, lessonEntity, type Lesson } from '#shared/schemas/lesson/lesson'
import { getLesson, lessonAuditView, lessonTable, lessonTargets, preparedLesson } from '../../db/lesson'
import { LESSON_TABLES, roomFilter } from '../../db/publication'
import { publicationChoices } from '../../db/rooms'
import { filterScope, insertStatement, listRows, realmScope } from '../../lib/entity'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, jsonListHas, nowIso, richTextPolicy } from '../../lib/tms'
import { type AppEnv, parse } from '../context'
import { checkedTargets, newPublication, publishBatch, refuseDates, requirePublication, withTargets, type PublishedKind } from '../publication'
import { deleteLessonRow, requireLessonModel, saveLessonContent } from './model'
import { copyLessonMediaStatement } from '../../db/lesson-media'

/** Published lessons as the publication steps see them (`../publication`). */
const LESSON: PublishedKind<Lesson> = { tables: LESSON_TABLES, entity: 'lesson_lesson', read: getLesson, notFound: { cause: 'not_found', noun: 'Lesson' } }

const content = (l: Record<string, unknown>) => Object.fromEntries(LESSON_CONTENT_FIELDS.map((f) => [f, l[f]]))

/** /lesson/lesson: lessons published to rooms, room members or room groups (like tasks, seed 001 §3 "Publication"). */
export const lessonLesson = new Hono<AppEnv>()
  /** GET /lesson/lesson/options: what a publication may target (rooms with members, groups). */
  .get(
    '/options',
    guarded({ all: ['lesson_lesson_create'] }, async (c, auth) => c.json(await publicationChoices(c.env.DB, auth.realm))),
  )
  /** GET /lesson/lesson: published lessons with their date status (limit, offset, like, order; status, model, room, dates, tag, category). */
  .get(
    '/',
    guarded({ all: ['lesson_lesson_list'] }, async (c, auth) => {
      const q = c.req.query()
      const extra = andScopes(
        filterScope(lessonEntity, q),
        roomFilter(LESSON_TABLES, q.room),
        jsonListHas('tags', q.tag),
        jsonListHas('categories', q.category),
      )
      return c.json(await listRows(c.env.DB, lessonEntity, realmScope(lessonEntity, auth), parse(ListQuery, q), extra))
    }),
  )
  /** GET /lesson/lesson/{id}: the lesson, its content and its targets; editors may read what they edit. */
  .get(
    '/:id',
    guarded({ any: ['lesson_lesson_get', 'lesson_lesson_edit'] }, async (c, auth) => {
      const l = await requirePublication(c, auth, LESSON)
      return c.json({ ...l, targets: await lessonTargets(c.env.DB, auth.realm, l.id) })
    }),
  )
  /** POST /lesson/lesson: publishes a model: the lesson is a copy of the model's content, with its targets and dates. */
  .post(
    '/',
    guardedJson({ all: ['lesson_lesson_create'] }, LessonPublishInput, async (c, auth, input) => {
      const db = c.env.DB
      const model = await requireLessonModel(c, auth, input.model_id)
      const publish_at = input.publish_at ?? nowIso()
      refuseDates({ publish_at, expire_at: input.expire_at })
      // The model's content passes the lesson rules again: a reference deleted since it was saved is refused here.
      const values = await preparedLesson(db, auth.realm, content(model) as never, await richTextPolicy(c, auth.realm))
      const targets = await checkedTargets(c, auth, input)
      const { id, now, realm, stamps } = newPublication(auth)
      const row = { ...values, id, realm, model_id: model.id, publication_type: input.publication_type, publish_at, expire_at: input.expire_at, ...stamps }
      const lesson = await publishBatch(c, auth, LESSON, {
        id,
        insert: insertStatement(db, lessonTable, row),
        targets,
        // The model's generated narration and videos go with the copy (the files are shared).
        after: [copyLessonMediaStatement(db, auth.realm, model.id, id, auth.nick, now)],
        audit: lessonAuditView(row),
      })
      return c.json(lesson, 201)
    }),
  )
  /** PUT /lesson/lesson/{id}: the published lesson's own content and dates (the model is not changed). */
  .put(
    '/:id',
    guardedJson({ all: ['lesson_lesson_edit'] }, LessonUpdate, async (c, auth, body) => {
      const existing = await requirePublication(c, auth, LESSON)
      const { publish_at, expire_at, discard_media, ...input } = body
      const dates = { publish_at: publish_at ?? existing.publish_at, expire_at: expire_at === undefined ? existing.expire_at : expire_at }
      refuseDates(dates)
      await saveLessonContent(c, auth, lessonTable, existing, input, discard_media, dates)
      return c.json(await withTargets(c, auth, LESSON, existing.id))
    }),
  )
  /** DELETE /lesson/lesson/{id}: deletes a publication (its targets go with it). */
  .delete(
    '/:id',
    guarded({ all: ['lesson_lesson_delete'] }, async (c, auth) => {
      await deleteLessonRow(c, auth, lessonTable, await requirePublication(c, auth, LESSON))
      return c.body(null, 204)
    }),
  )
