import { Hono } from 'hono'
import { ListQuery } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import { LESSON_CONTENT_FIELDS, LessonPublishInput, LessonUpdate, lessonDateProblems, lessonEntity, type Lesson } from '#shared/schemas/lesson/lesson'
import { getLesson, lessonAuditView, lessonTable, lessonTargets, preparedLesson } from '../../db/lesson'
import { publicationChoices } from '../../db/rooms'
import { publicationTargets, roomFilter, targetStatements } from '../../db/tms-task'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { deleteStatement, filterScope, insertStatement, listRows, realmScope, updateStatement } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, jsonListHas, newId, nowIso, refuse, richTextPolicy, ruleError } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { refusePersonaChange, requireLessonModel } from './model'
import { personaSwitch, removeUnusedFiles } from './media'
import { copyLessonMediaStatement, deleteLessonMediaStatement, listLessonMedia } from '../../db/lesson-media'

async function requireLesson(c: Ctx, auth: Auth, id: string): Promise<Lesson> {
  const found = await getLesson(c.env.DB, auth.realm, parse(Id, id))
  if (!found) throw apiError(404, 'not_found', `Lesson ${id} was not found.`, 'id', id)
  return found
}

const content = (l: Record<string, unknown>) => Object.fromEntries(LESSON_CONTENT_FIELDS.map((f) => [f, l[f]]))

/** Lessons reaching a room (the room filter of the list), as tasks do. */
const lessonRoomFilter = (room: string | undefined) => {
  const f = roomFilter(room)
  return f && { ...f, where: f.where.replaceAll('tms_task_target', 'lesson_lesson_target').replaceAll('x.task_id', 'x.lesson_id') }
}

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
      const extra = andScopes(filterScope(lessonEntity, q), lessonRoomFilter(q.room), jsonListHas('tags', q.tag), jsonListHas('categories', q.category))
      return c.json(await listRows(c.env.DB, lessonEntity, realmScope(lessonEntity, auth), parse(ListQuery, q), extra))
    }),
  )
  /** GET /lesson/lesson/{id}: the lesson, its content and its targets; editors may read what they edit. */
  .get(
    '/:id',
    guarded({ any: ['lesson_lesson_get', 'lesson_lesson_edit'] }, async (c, auth) => {
      const l = await requireLesson(c, auth, pathParam(c, 'id'))
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
      refuse(lessonDateProblems({ publish_at, expire_at: input.expire_at }).map((p) => ruleError(p.field, p.message, input.expire_at)))
      // The model's content passes the lesson rules again: a reference deleted since it was saved is refused here.
      const values = await preparedLesson(db, auth.realm, content(model) as never, await richTextPolicy(c, auth.realm))
      const targets = await publicationTargets(db, auth.realm, input)
      refuse(targets.problems)
      const id = newId()
      const now = nowIso()
      const row = {
        ...values,
        id,
        realm: auth.realm,
        model_id: model.id,
        publication_type: input.publication_type,
        publish_at,
        expire_at: input.expire_at,
        created_at: now,
        created_by: auth.nick,
        updated_at: now,
        updated_by: auth.nick,
      }
      await runBatch(db, [
        insertStatement(db, lessonTable, row),
        ...targetStatements(db, 'lesson_lesson_target', 'lesson_id', auth.realm, id, targets.rows),
        // The model's generated narration and videos go with the copy (the files are shared).
        copyLessonMediaStatement(db, auth.realm, model.id, id, auth.nick, now),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'publish',
          entity: 'lesson_lesson',
          entityId: id,
          after: { ...lessonAuditView(row), targets: targets.rows },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json({ ...(await getLesson(db, auth.realm, id))!, targets: await lessonTargets(db, auth.realm, id) }, 201)
    }),
  )
  /** PUT /lesson/lesson/{id}: the published lesson's own content and dates (the model is not changed). */
  .put(
    '/:id',
    guardedJson({ all: ['lesson_lesson_edit'] }, LessonUpdate, async (c, auth, body) => {
      const db = c.env.DB
      const existing = await requireLesson(c, auth, pathParam(c, 'id'))
      const { publish_at, expire_at, discard_media, ...input } = body
      const dates = { publish_at: publish_at ?? existing.publish_at, expire_at: expire_at === undefined ? existing.expire_at : expire_at }
      refuse(lessonDateProblems(dates).map((p) => ruleError(p.field, p.message, dates.expire_at)))
      refusePersonaChange(existing, input)
      const values = {
        ...(await preparedLesson(db, auth.realm, input, await richTextPolicy(c, auth.realm))),
        ...dates,
        updated_at: nowIso(),
        updated_by: auth.nick,
      }
      const media = await personaSwitch(c.env, auth.realm, existing, { persona_id: input.persona_id, discard_media })
      await runBatch(db, [
        ...media.statements,
        updateStatement(db, lessonTable, realmScope(lessonTable, auth), existing.id, values),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'update',
          entity: 'lesson_lesson',
          entityId: existing.id,
          before: lessonAuditView(existing),
          after: lessonAuditView({ ...existing, ...values }),
          requestId: c.get('requestId'),
        }),
      ])
      await media.cleanup()
      return c.json({ ...(await getLesson(db, auth.realm, existing.id))!, targets: await lessonTargets(db, auth.realm, existing.id) })
    }),
  )
  /** DELETE /lesson/lesson/{id}: deletes a publication (its targets go with it). */
  .delete(
    '/:id',
    guarded({ all: ['lesson_lesson_delete'] }, async (c, auth) => {
      const db = c.env.DB
      const existing = await requireLesson(c, auth, pathParam(c, 'id'))
      const media = await listLessonMedia(db, auth.realm, existing.id)
      await runBatch(db, [
        deleteLessonMediaStatement(db, auth.realm, existing.id),
        deleteStatement(db, lessonTable, realmScope(lessonTable, auth), existing.id),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'delete',
          entity: 'lesson_lesson',
          entityId: existing.id,
          before: lessonAuditView(existing),
          requestId: c.get('requestId'),
        }),
      ])
      await removeUnusedFiles(c.env, auth.realm, media)
      return c.body(null, 204)
    }),
  )
