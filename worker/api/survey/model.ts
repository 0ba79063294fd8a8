import { Hono } from 'hono'
import { ListQuery } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import { SurveyInput, surveyModelEntity, type SurveyModel } from '#shared/schemas/survey/survey'
import { getSurveyModel, surveyCounts } from '../../db/survey'
import type { Auth } from '../../db/sessions'
import { runBatch } from '../../db/batch'
import { deleteStatement, filterScope, insertStatement, listRows, realmScope, updateStatement } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { auditBy, createdStamps, newId, nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

export async function requireSurveyModel(c: Ctx, auth: Auth, id: string): Promise<SurveyModel> {
  const found = await getSurveyModel(c.env.DB, auth.realm, parse(Id, id))
  if (!found) throw apiError(404, 'not_found', `Survey model ${id} was not found.`, 'id', id)
  return found
}

/** Seed 001 §4/§8: a model with published surveys cannot be deleted or updated. */
async function refuseWhenPublished(c: Ctx, auth: Auth, m: SurveyModel, action: 'update' | 'delete') {
  const n = (await surveyCounts(c.env.DB, auth.realm, [m.id])).get(m.id) ?? 0
  if (n > 0) throw apiError(409, `survey_model_${action}_blocked`, `validation.survey.model_${action}_blocked`, 'id', m.id)
}

const stored = (input: SurveyInput) => ({ ...input, question_count: input.questions.length })

/** /survey/model: survey models (seed 001 §3 "Survey"; issue 19). */
export const surveyModel = new Hono<AppEnv>()
  /**
   * GET /survey/model: the realm's models (limit, offset, like, order; title, dates, is_required) with publication
   * counts. Publishers list them too: publishing starts by choosing a model.
   */
  .get(
    '/',
    guarded({ any: ['survey_model_list', 'survey_survey_publish'] }, async (c, auth) => {
      const q = c.req.query()
      const page = await listRows(c.env.DB, surveyModelEntity, realmScope(surveyModelEntity, auth), parse(ListQuery, q), filterScope(surveyModelEntity, q))
      const counts = await surveyCounts(
        c.env.DB,
        auth.realm,
        page.items.map((m) => m.id),
      )
      return c.json({ ...page, items: page.items.map((m) => ({ ...m, published_count: counts.get(m.id) ?? 0 })) })
    }),
  )
  .get(
    '/:id',
    guarded({ any: ['survey_model_get', 'survey_model_edit', 'survey_survey_publish'] }, async (c, auth) => {
      const m = await requireSurveyModel(c, auth, pathParam(c, 'id'))
      return c.json({ ...m, published_count: (await surveyCounts(c.env.DB, auth.realm, [m.id])).get(m.id) ?? 0 })
    }),
  )
  /** POST /survey/model: a model may be saved without questions (a draft); publishing needs one. */
  .post(
    '/',
    guardedJson({ all: ['survey_model_create'] }, SurveyInput, async (c, auth, input) => {
      const db = c.env.DB
      const row = {
        ...stored(input),
        id: newId(),
        realm: auth.realm,
        type: 'model',
        ...createdStamps(auth.nick, nowIso()),
      }
      await runBatch(db, [
        insertStatement(db, surveyModelEntity, row),
        auditBy(c, auth, {
          action: 'create',
          entity: 'survey_model',
          entityId: row.id,
          after: row,
        }),
      ])
      return c.json((await getSurveyModel(db, auth.realm, row.id))!, 201)
    }),
  )
  .put(
    '/:id',
    guardedJson({ all: ['survey_model_edit'] }, SurveyInput, async (c, auth, input) => {
      const db = c.env.DB
      const existing = await requireSurveyModel(c, auth, pathParam(c, 'id'))
      await refuseWhenPublished(c, auth, existing, 'update')
      const values = { ...stored(input), updated_at: nowIso(), updated_by: auth.nick }
      await runBatch(db, [
        updateStatement(db, surveyModelEntity, realmScope(surveyModelEntity, auth), existing.id, values),
        auditBy(c, auth, {
          action: 'update',
          entity: 'survey_model',
          entityId: existing.id,
          before: existing,
          after: { ...existing, ...values },
        }),
      ])
      return c.json((await getSurveyModel(db, auth.realm, existing.id))!)
    }),
  )
  .delete(
    '/:id',
    guarded({ all: ['survey_model_delete'] }, async (c, auth) => {
      const db = c.env.DB
      const existing = await requireSurveyModel(c, auth, pathParam(c, 'id'))
      await refuseWhenPublished(c, auth, existing, 'delete')
      await runBatch(db, [
        deleteStatement(db, surveyModelEntity, realmScope(surveyModelEntity, auth), existing.id),
        auditBy(c, auth, {
          action: 'delete',
          entity: 'survey_model',
          entityId: existing.id,
          before: existing,
        }),
      ])
      return c.body(null, 204)
    }),
  )
