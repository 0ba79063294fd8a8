import { Hono } from 'hono'
import { ListQuery } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import type { EntityDescriptor } from '#shared/schemas/entity'
import { LessonInput, LessonModelUpdate, lessonModelEntity, type Lesson, type LessonModel } from '#shared/schemas/lesson/lesson'
import { createLessonModel, getLessonModel, lessonAuditView, lessonCounts, preparedLesson } from '../../db/lesson'
import type { Auth } from '../../db/sessions'
import { deleteLessonMediaStatement, listLessonMedia } from '../../db/lesson-media'
import { personaSwitch, removeUnusedFiles } from './media'
import { runBatch } from '../../db/batch'
import { deleteStatement, filterScope, listRows, realmScope, updateStatement } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, auditBy, jsonListHas, nowIso, richTextPolicy } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

export async function requireLessonModel(c: Ctx, auth: Auth, id: string): Promise<LessonModel> {
  const found = await getLessonModel(c.env.DB, auth.realm, parse(Id, id))
  if (!found) throw apiError(404, 'not_found', `Lesson model ${id} was not found.`, 'id', id)
  return found
}

/**
 * The persona is fixed while the lesson has a video (seed 001 §4: switching persona loses generated videos): a save
 * changing it must also drop the video (the editor asks first).
 */
export function refusePersonaChange(existing: { video: string | null; persona_id: string | null }, next: { persona_id: string | null; video: string | null }) {
  if (existing.video && next.video && existing.persona_id !== next.persona_id)
    throw apiError(409, 'persona_fixed', 'validation.lesson.persona_fixed', 'persona_id', next.persona_id)
}

/**
 * Saves a lesson's content into a model or a published lesson (`table`, whose name is the audit entity), with
 * `extra` columns (a lesson's dates): the persona rule, the lesson rules (`preparedLesson`), the media a persona
 * switch drops, the update and its audit record in one batch.
 */
export async function saveLessonContent(
  c: Ctx,
  auth: Auth,
  table: EntityDescriptor,
  existing: LessonModel | Lesson,
  input: LessonInput,
  discard_media: boolean,
  extra: Record<string, unknown> = {},
) {
  const db = c.env.DB
  refusePersonaChange(existing, input)
  const values = {
    ...(await preparedLesson(db, auth.realm, input, await richTextPolicy(c, auth.realm))),
    ...extra,
    updated_at: nowIso(),
    updated_by: auth.nick,
  }
  const media = await personaSwitch(c.env, auth.realm, existing, { persona_id: input.persona_id, discard_media })
  await runBatch(db, [
    ...media.statements,
    updateStatement(db, table, realmScope(table, auth), existing.id, values),
    auditBy(c, auth, {
      action: 'update',
      entity: table.name,
      entityId: existing.id,
      before: lessonAuditView(existing),
      after: lessonAuditView({ ...existing, ...values }),
    }),
  ])
  await media.cleanup()
}

/** Deletes a model or a published lesson (`table`) with its generated media; files no other row uses are removed after. */
export async function deleteLessonRow(c: Ctx, auth: Auth, table: EntityDescriptor, existing: LessonModel | Lesson) {
  const db = c.env.DB
  const media = await listLessonMedia(db, auth.realm, existing.id)
  await runBatch(db, [
    deleteLessonMediaStatement(db, auth.realm, existing.id),
    deleteStatement(db, table, realmScope(table, auth), existing.id),
    auditBy(c, auth, { action: 'delete', entity: table.name, entityId: existing.id, before: lessonAuditView(existing) }),
  ])
  await removeUnusedFiles(c.env, auth.realm, media)
}

/** /lesson/model: lesson models (seed 001 §3 "Lesson and lesson content"; issue 18). */
export const lessonModel = new Hono<AppEnv>()
  /** GET /lesson/model: the realm's models (limit, offset, like, order; title, language, dates, tag, category) with publication counts. */
  .get(
    '/',
    guarded({ all: ['lesson_model_list'] }, async (c, auth) => {
      const q = c.req.query()
      const page = await listRows(
        c.env.DB,
        lessonModelEntity,
        realmScope(lessonModelEntity, auth),
        parse(ListQuery, q),
        andScopes(filterScope(lessonModelEntity, q), jsonListHas('tags', q.tag), jsonListHas('categories', q.category)),
      )
      const counts = await lessonCounts(
        c.env.DB,
        auth.realm,
        page.items.map((m) => m.id),
      )
      return c.json({ ...page, items: page.items.map((m) => ({ ...m, published_count: counts.get(m.id) ?? 0 })) })
    }),
  )
  /** GET /lesson/model/{id}: the model with its contents; editors may read what they edit. */
  .get(
    '/:id',
    guarded({ any: ['lesson_model_get', 'lesson_model_edit'] }, async (c, auth) => {
      const m = await requireLessonModel(c, auth, pathParam(c, 'id'))
      return c.json({ ...m, published_count: (await lessonCounts(c.env.DB, auth.realm, [m.id])).get(m.id) ?? 0 })
    }),
  )
  /** POST /lesson/model: creates a model (the rules of seed 001 §5, see createLessonModel). */
  .post(
    '/',
    guardedJson({ all: ['lesson_model_create'] }, LessonInput, async (c, auth, input) => {
      const w = { db: c.env.DB, realm: auth.realm, nick: auth.nick, policy: await richTextPolicy(c, auth.realm), requestId: c.get('requestId') }
      return c.json(await createLessonModel(w, input), 201)
    }),
  )
  /** PUT /lesson/model/{id}: replaces the model's content (published lessons keep their own copy). */
  .put(
    '/:id',
    guardedJson({ all: ['lesson_model_edit'] }, LessonModelUpdate, async (c, auth, { discard_media, ...input }) => {
      const existing = await requireLessonModel(c, auth, pathParam(c, 'id'))
      await saveLessonContent(c, auth, lessonModelEntity, existing, input, discard_media)
      return c.json((await getLessonModel(c.env.DB, auth.realm, existing.id))!)
    }),
  )
  /** DELETE /lesson/model/{id}: published lessons are copies and stay. */
  .delete(
    '/:id',
    guarded({ all: ['lesson_model_delete'] }, async (c, auth) => {
      await deleteLessonRow(c, auth, lessonModelEntity, await requireLessonModel(c, auth, pathParam(c, 'id')))
      return c.body(null, 204)
    }),
  )
