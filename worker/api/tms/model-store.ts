import { INFORMATIVE_TYPES } from '#shared/schemas/tms/question-types'
import { runBatch } from '../../db/batch'
import { versionPublished } from '../../db/tms'
import { Id } from '#shared/schemas/tms/common'
import { modelEntity, type Model, type ModelInput } from '#shared/schemas/tms/model'
import type { Question } from '#shared/schemas/tms/question'
import { getModel, referenceProblems } from '../../db/tms'
import type { Auth } from '../../db/sessions'
import { insertStatement, realmScope, updateStatement } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { auditBy, createdStamps, newId, nowIso, refuse, richTextPolicy, storedQuestion } from '../../lib/tms'
import { type Ctx, parse } from '../context'

/** Writing task models: shared by the CRUD endpoints and the duplicate, import and category actions. */

/** Stored columns of a validated model; questions sanitized, answerable questions counted. */
export function modelValues(input: ModelInput, questions: Question[]) {
  const { parent_id: _parent, questions: _q, ...rest } = input
  return { ...rest, questions, question_count: questions.filter((q) => !INFORMATIVE_TYPES.includes(q.type)).length }
}

/** What the audit record keeps of a model: its fields, with the questions summarised (versions keep the content). */
export function auditView(m: Record<string, unknown>): Record<string, unknown> {
  const { questions, ...rest } = m
  return { ...rest, questions: Array.isArray(questions) ? (questions as Question[]).map((q) => `${q.id}:${q.type}`) : questions }
}

/** The input validated, its rich text sanitized, and its references to categories, genres and skills checked. */
export async function preparedModel(c: Ctx, auth: Auth, input: ModelInput) {
  const policy = await richTextPolicy(c, auth.realm)
  const questions = input.questions.map((q) => storedQuestion(q, policy))
  refuse(
    await referenceProblems(
      c.env.DB,
      auth.realm,
      input.categories,
      questions.map((q, i) => ({ q, at: `questions.${i}.` })),
    ),
  )
  return modelValues(input, questions)
}

/** Inserts a new model (create, duplicate, import) with its audit record; answers the stored model. */
export async function insertModel(c: Ctx, auth: Auth, values: Record<string, unknown>, action: string, parentId: string | null = null): Promise<Model> {
  const db = c.env.DB
  const id = newId()
  const row = {
    ...values,
    id,
    realm: auth.realm,
    parent_id: parentId,
    version: 1,
    ...createdStamps(auth.nick, nowIso()),
  }
  await runBatch(db, [
    insertStatement(db, modelEntity, row),
    auditBy(c, auth, {
      action,
      entity: modelEntity.name,
      entityId: id,
      after: auditView(row),
    }),
  ])
  return (await getModel(db, auth.realm, id))!
}

/**
 * Saves new content into a model. When the model's current version has published tasks, the change becomes a new
 * version (those tasks keep theirs, seed 001 §4); otherwise the current version changes in place.
 */
export async function saveModel(c: Ctx, auth: Auth, existing: Model, values: Record<string, unknown>): Promise<Model> {
  const db = c.env.DB
  const published = await versionPublished(db, auth.realm, existing.id, existing.version)
  const after = { ...values, version: published ? existing.version + 1 : existing.version, updated_at: nowIso(), updated_by: auth.nick }
  await runBatch(db, [
    updateStatement(db, modelEntity, realmScope(modelEntity, auth), existing.id, after),
    auditBy(c, auth, {
      action: 'update',
      entity: modelEntity.name,
      entityId: existing.id,
      before: auditView(existing),
      after: auditView({ ...existing, ...after }),
    }),
  ])
  return (await getModel(db, auth.realm, existing.id))!
}

export async function requireModel(c: Ctx, auth: Auth, id: string): Promise<Model> {
  const found = await getModel(c.env.DB, auth.realm, parse(Id, id))
  if (!found) throw apiError(404, 'not_found', `Task model ${id} was not found.`, 'id', id)
  return found
}
