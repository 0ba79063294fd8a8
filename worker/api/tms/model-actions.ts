import { Hono } from 'hono'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import { ModelExport, ModelInput, exportModel } from '#shared/schemas/tms/model'
import { listCategories } from '../../db/tms'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { refuse, ruleError } from '../../lib/tms'
import { type AppEnv, parse, pathParam } from '../context'
import { insertModel, preparedModel, requireModel, saveModel } from './model-store'

const DuplicateBody = v.object({
  title: v.optional(v.pipe(v.string(), v.trim(), v.minLength(3, 'validation.tms.title_min'), v.maxLength(200, 'validation.max_length'))),
})
const CategoryBody = v.object({ category_id: Id })

/** Model actions beyond CRUD (seed 001 §7): duplicate, export, import, category add and remove. */
export const modelActions = new Hono<AppEnv>()
  /** POST /tms/model/import: creates a model from an export document; category links unknown here are dropped and reported. */
  .post(
    '/import',
    guardedJson({ all: ['tms_model_create'] }, ModelExport, async (c, auth, doc) => {
      const known = new Set((await listCategories(c.env.DB, auth.realm)).map((x) => x.id))
      const dropped = new Set<string>()
      const keep = (ids: string[]) => ids.filter((id) => (known.has(id) ? true : (dropped.add(id), false)))
      const input = {
        ...doc.model,
        categories: keep(doc.model.categories),
        questions: doc.model.questions.map((q) => ({ ...q, categories: keep(q.categories) })),
      }
      const created = await insertModel(c, auth, await preparedModel(c, auth, input), 'import')
      return c.json({ ...created, dropped_categories: [...dropped] }, 201)
    }),
  )
  /** POST /tms/model/{id}/duplicate: a copy (new question ids) whose parent is the original. */
  .post(
    '/:id/duplicate',
    guardedJson({ all: ['tms_model_create'] }, DuplicateBody, async (c, auth, body) => {
      const source = await requireModel(c, auth, pathParam(c, 'id'))
      const content = exportModel(source).model
      const copy = parse(ModelInput, {
        ...content,
        title: body.title ?? `${source.title} (2)`.slice(0, 200),
        questions: content.questions.map(({ id: _id, ...q }) => q),
      })
      return c.json(await insertModel(c, auth, await preparedModel(c, auth, copy), 'duplicate', source.id), 201)
    }),
  )
  /** GET /tms/model/{id}/export: the model's export document (JSON that imports back identically). */
  .get(
    '/:id/export',
    guarded({ all: ['tms_model_get'] }, async (c, auth) => c.json(exportModel(await requireModel(c, auth, pathParam(c, 'id'))))),
  )
  /** POST /tms/model/{id}/category: links a category; linking one already linked is refused. */
  .post(
    '/:id/category',
    guardedJson({ all: ['tms_model_edit'] }, CategoryBody, async (c, auth, { category_id }) => {
      const existing = await requireModel(c, auth, pathParam(c, 'id'))
      if (existing.categories.includes(category_id)) throw apiError(409, 'category_duplicate', 'validation.tms.category_duplicate', 'category_id', category_id)
      const input = parse(ModelInput, { ...exportModel(existing).model, categories: [...existing.categories, category_id] })
      return c.json(await saveModel(c, auth, existing, await preparedModel(c, auth, input)))
    }),
  )
  /** DELETE /tms/model/{id}/category/{categoryId}: removes a category link. */
  .delete(
    '/:id/category/:categoryId',
    guarded({ all: ['tms_model_edit'] }, async (c, auth) => {
      const existing = await requireModel(c, auth, pathParam(c, 'id'))
      const categoryId = pathParam(c, 'categoryId')
      if (!existing.categories.includes(categoryId)) refuse([ruleError('category_id', 'validation.tms.category_not_linked', categoryId)])
      const input = parse(ModelInput, { ...exportModel(existing).model, categories: existing.categories.filter((x) => x !== categoryId) })
      return c.json(await saveModel(c, auth, existing, await preparedModel(c, auth, input)))
    }),
  )
