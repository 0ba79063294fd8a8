import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { ListQuery } from '#shared/schemas/common'
import { PublishInput, TaskUpdate, publicationProblems, taskEntity, type Publication, type PublicationContext, type Task } from '#shared/schemas/tms/task'
import { categoryChoiceProblems } from '#shared/schemas/tms/category'
import type { Model } from '#shared/schemas/tms/model'
import { getModel, listCategories, modelVersionContent, snapshotStatement } from '../../db/tms'
import { deleteTaskStatement, getTask, insertTaskStatement, taskTargets, updateTaskStatement, visibleTasksScope } from '../../db/tms-task'
import { TASK_TABLES, roomFilter } from '../../db/publication'
import type { Auth } from '../../db/sessions'
import { filterScope, listRows, type Scope } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { checkExtraFields } from '../../lib/extra-fields'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, auditBy, jsonListHas, nowIso, realmTmsLimits, refuse, ruleError } from '../../lib/tms'
import { checkedTargets, newPublication, publishBatch, requirePublication, withTargets, type PublishedKind } from '../publication'
import { type AppEnv, type Ctx, parse } from '../context'
import { publishOptions } from './task-options'

const LIST = ['tms_task_list_by_target', 'tms_task_list_others']

/**
 * Tasks a caller may list: every task of the realm with tms_task_list_others; with tms_task_list_by_target only,
 * the tasks they published and those reaching rooms they are a member of.
 */
function listScope(auth: Auth): Scope {
  return visibleTasksScope(auth.realm, auth.permissions.has('tms_task_list_others') ? null : auth.nick)
}

/** Tasks as the publication steps see them (`../publication`). */
const TASK: PublishedKind<Task> = { tables: TASK_TABLES, entity: 'tms_task', read: getTask, notFound: { cause: 'not_found', noun: 'Task' } }

/** The publication rules' context: the clock, the realm's limits, the model's questions, the realm's categories. */
async function ruleContext(
  c: Ctx,
  auth: Auth,
  model: Pick<Model, 'questions' | 'token' | 'min_execution_time'>,
  changed?: Set<string>,
): Promise<PublicationContext> {
  const [limits, categories] = await Promise.all([realmTmsLimits(c.env.DB, auth.realm), listCategories(c.env.DB, auth.realm)])
  return {
    now: Date.now(),
    maxScheduleDays: limits.maxScheduleDays,
    model: { question_types: model.questions.map((q) => q.type), token: model.token, min_execution_time: model.min_execution_time },
    categories,
    changed,
  }
}

function checkPublication(p: Publication, ctx: PublicationContext) {
  refuse([
    ...publicationProblems(p, ctx).map((x) => ruleError(x.field, x.message, x.value ?? (p as unknown as Record<string, unknown>)[x.field] ?? null)),
    ...(!ctx.changed || ctx.changed.has('categories')
      ? categoryChoiceProblems(p.categories, ctx.categories).map((x) => ruleError('categories', x.message, x.value))
      : []),
  ])
}

/** A task column's stored value. */
const column = (value: unknown) => (typeof value === 'boolean' ? (value ? 1 : 0) : value !== null && typeof value === 'object' ? JSON.stringify(value) : value)

/** The realm's required active extra fields of tasks must have values; only declared keys are kept (seed 002 §3). */
async function requireExtraFields(c: Ctx, auth: Auth, extra: Record<string, string>) {
  const errors = await checkExtraFields(c.env.DB, auth.realm, 'task', extra)
  if (errors.length) throw new ApiError(422, errors)
}

/** /tms/task: publication of task models to rooms, room members or room groups (seed 001 §3–§5). */
export const task = new Hono<AppEnv>()
  .get('/options/:modelId', guarded({ all: ['tms_task_publish'] }, publishOptions))
  /** GET /tms/task: tasks with their date status (limit, offset, like, order; status, room, category, dates, model). */
  .get(
    '/',
    guarded({ any: LIST }, async (c, auth) => {
      const q = c.req.query()
      const extra = andScopes(filterScope(taskEntity, q), roomFilter(TASK_TABLES, q.room), jsonListHas('categories', q.category))
      return c.json(await listRows(c.env.DB, taskEntity, listScope(auth), parse(ListQuery, q), extra))
    }),
  )
  /** GET /tms/task/{id}: the task, its targets, and the content of the model version it was published with. */
  .get(
    '/:id',
    guarded({ all: ['tms_task_get'] }, async (c, auth) => {
      const t = await requirePublication(c, auth, TASK)
      const [targets, content] = await Promise.all([
        taskTargets(c.env.DB, auth.realm, t.id),
        modelVersionContent(c.env.DB, auth.realm, t.model_id, t.model_version),
      ])
      // The stored snapshot of the model's content (modelContent): its questions are the model's.
      return c.json({ ...t, targets, content: content as (Pick<Model, 'questions'> & Record<string, unknown>) | null })
    }),
  )
  /** POST /tms/task: publishes a model; the model's current version is kept for the task. */
  .post(
    '/',
    guardedJson({ all: ['tms_task_publish'] }, PublishInput, async (c, auth, body) => {
      const db = c.env.DB
      const input = body
      const model = await getModel(db, auth.realm, input.model_id)
      if (!model) throw apiError(404, 'not_found', `Task model ${input.model_id} was not found.`, 'model_id', input.model_id)
      const limits = await realmTmsLimits(db, auth.realm)
      const publish_at = input.publish_at ?? nowIso()
      // Default deadline (3 days for digital materials) plus the realm's expire offset.
      const expire_at = input.expire_at ?? new Date(Date.parse(publish_at) + (limits.defaultDeadlineDays + limits.expireOffsetDays) * 86_400_000).toISOString()
      const p: Publication = { ...input, publish_at, expire_at, categories: input.categories.length ? input.categories : model.categories }
      checkPublication(p, await ruleContext(c, auth, model))
      await requireExtraFields(c, auth, input.extra)
      const targets = await checkedTargets(c, auth, input)
      const { id, realm, stamps } = newPublication(auth)
      const row = {
        id,
        realm,
        model_id: model.id,
        model_version: model.version,
        title: model.title,
        kind: model.kind,
        publication_type: input.publication_type,
        publish_at,
        expire_at,
        display_answer_at: input.display_answer_at,
        correct_at: input.correct_at,
        show_timer: input.show_timer ? 1 : 0,
        scheduling_enabled: input.scheduling_enabled ? 1 : 0,
        token: model.token ? 1 : 0,
        categories: JSON.stringify(p.categories),
        extra: JSON.stringify(input.extra),
        ...stamps,
      }
      const task = await publishBatch(c, auth, TASK, {
        id,
        before: [snapshotStatement(db, model, auth.nick)],
        insert: insertTaskStatement(db, row),
        targets,
        audit: { ...row, categories: p.categories },
      })
      return c.json(task, 201)
    }),
  )
  /** PUT /tms/task/{id}: dates, timer, scheduling (off pauses the task), categories, or the newest model version. */
  .put(
    '/:id',
    guardedJson({ all: ['tms_task_edit'] }, TaskUpdate, async (c, auth, body) => {
      const db = c.env.DB
      const existing = await requirePublication(c, auth, TASK)
      const model = (await getModel(db, auth.realm, existing.model_id))!
      const { update_version, ...fields } = body
      const changed = new Set(
        Object.entries(fields)
          .filter(([k, v]) => v !== undefined && JSON.stringify(v) !== JSON.stringify(existing[k as keyof Task]))
          .map(([k]) => k),
      )
      const values: Record<string, unknown> = Object.fromEntries([...changed].map((k) => [k, fields[k as keyof typeof fields]]))
      const moving = Boolean(update_version) && model.version !== existing.model_version
      if (moving) changed.add('model_version')
      // The rules read the content the task will have: the newest version when moving, else its own.
      const content = moving
        ? model
        : (((await modelVersionContent(db, auth.realm, model.id, existing.model_version)) as Pick<
            Model,
            'questions' | 'token' | 'min_execution_time'
          > | null) ?? model)
      checkPublication({ ...existing, ...values } as Publication, await ruleContext(c, auth, content, changed))
      if (changed.has('extra')) await requireExtraFields(c, auth, fields.extra ?? {})
      const statements: D1PreparedStatement[] = []
      if (moving) {
        statements.push(snapshotStatement(db, model, auth.nick))
        Object.assign(values, { model_version: model.version, title: model.title, kind: model.kind, token: model.token })
      }
      if (Object.keys(values).length) {
        Object.assign(values, { updated_at: nowIso(), updated_by: auth.nick })
        const cols = Object.keys(values)
        const before = Object.fromEntries(cols.map((k) => [k, existing[k as keyof Task] ?? null]))
        statements.push(
          updateTaskStatement(db, auth.realm, existing.id, Object.fromEntries(Object.entries(values).map(([k, v]) => [k, column(v)]))),
          auditBy(c, auth, {
            action: moving ? 'update_version' : 'update',
            entity: 'tms_task',
            entityId: existing.id,
            before,
            after: values,
          }),
        )
        await runBatch(db, statements)
      }
      return c.json(await withTargets(c, auth, TASK, existing.id))
    }),
  )
  /** DELETE /tms/task/{id}: deletes a publication (its targets and tokens go with it). */
  .delete(
    '/:id',
    guarded({ all: ['tms_task_delete'] }, async (c, auth) => {
      const db = c.env.DB
      const existing = await requirePublication(c, auth, TASK)
      const targets = await taskTargets(db, auth.realm, existing.id)
      await runBatch(db, [
        deleteTaskStatement(db, auth.realm, existing.id),
        auditBy(c, auth, {
          action: 'delete',
          entity: 'tms_task',
          entityId: existing.id,
          before: { ...existing, targets },
        }),
      ])
      return c.body(null, 204)
    }),
  )
