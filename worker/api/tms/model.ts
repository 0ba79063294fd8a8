import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { publishedCounts } from '../../db/tms'
import { ListQuery } from '#shared/schemas/common'
import { ModelInput, modelEntity } from '#shared/schemas/tms/model'
import { getModel, publishedCount } from '../../db/tms'
import { auditStatement } from '../../db/audit'
import { deleteStatement, filterScope, listRows, realmScope } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, jsonListHas, refuse, ruleError } from '../../lib/tms'
import { type AppEnv, parse, pathParam } from '../context'
import { modelActions } from './model-actions'
import { auditView, insertModel, preparedModel, requireModel, saveModel } from './model-store'

/** /tms/model: task models (seed 001 §3), their versions, and the duplicate, export, import and category actions. */
export const model = new Hono<AppEnv>()
  /** GET /tms/model: models of the realm (limit, offset, like, order; kind, title, dates; tag and category), with publication counts. */
  .get(
    '/',
    guarded({ all: ['tms_model_list'] }, async (c, auth) => {
      const db = c.env.DB
      const q = c.req.query()
      const query = parse(ListQuery, q)
      const page = await listRows(
        db,
        modelEntity,
        realmScope(modelEntity, auth),
        query,
        andScopes(filterScope(modelEntity, q), jsonListHas('tags', q.tag), jsonListHas('categories', q.category)),
      )
      const ids = page.items.map((m) => m.id)
      const counts = await publishedCounts(db, auth.realm, ids)
      return c.json({ ...page, items: page.items.map((m) => ({ ...m, published_count: counts.get(m.id) ?? 0 })) })
    }),
  )
  .route('/', modelActions)
  /** GET /tms/model/{id}: the model with its questions; editors may read what they edit. */
  .get(
    '/:id',
    guarded({ any: ['tms_model_get', 'tms_model_edit'] }, async (c, auth) => {
      const m = await requireModel(c, auth, pathParam(c, 'id'))
      return c.json({ ...m, published_count: await publishedCount(c.env.DB, auth.realm, m.id) })
    }),
  )
  /** POST /tms/model: creates a model from its fields and questions. */
  .post(
    '/',
    guardedJson({ all: ['tms_model_create'] }, ModelInput, async (c, auth, input) => {
      if (input.parent_id && !(await getModel(c.env.DB, auth.realm, input.parent_id)))
        refuse([ruleError('parent_id', 'validation.tms.unknown_model', input.parent_id)])
      return c.json(await insertModel(c, auth, await preparedModel(c, auth, input), 'create', input.parent_id), 201)
    }),
  )
  /** PUT /tms/model/{id}: replaces the model's content (a new version when the current one is published). */
  .put(
    '/:id',
    guardedJson({ all: ['tms_model_edit'] }, ModelInput, async (c, auth, body) => {
      const existing = await requireModel(c, auth, pathParam(c, 'id'))
      const input = body
      return c.json(await saveModel(c, auth, existing, await preparedModel(c, auth, input)))
    }),
  )
  /** DELETE /tms/model/{id}: refused while tasks published from it exist (seed 001 §4). */
  .delete(
    '/:id',
    guarded({ all: ['tms_model_delete'] }, async (c, auth) => {
      const db = c.env.DB
      const existing = await requireModel(c, auth, pathParam(c, 'id'))
      const tasks = await publishedCount(db, auth.realm, existing.id)
      if (tasks > 0) throw apiError(409, 'blocked', 'tms.model.delete_blocked', 'id', tasks)
      await runBatch(db, [
        deleteStatement(db, modelEntity, realmScope(modelEntity, auth), existing.id),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'delete',
          entity: modelEntity.name,
          entityId: existing.id,
          before: auditView(existing),
          requestId: c.get('requestId'),
        }),
      ])
      return c.body(null, 204)
    }),
  )
