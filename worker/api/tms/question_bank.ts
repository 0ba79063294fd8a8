import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { bankItemsToClassify, classifyBankItemStatement } from '../../db/tms'
import { plainText } from '#shared/rich-text'
import { BankClassify, BankItemInput, bankEntity, type BankItem } from '#shared/schemas/tms/bank'
import type { Question } from '#shared/schemas/tms/question'
import { referenceProblems } from '../../db/tms'
import type { Auth } from '../../db/sessions'
import { auditStatement } from '../../db/audit'
import { crud, realmScope } from '../../lib/entity'
import { guardedJson } from '../../lib/guard'
import { andScopes, jsonListHas, newId, nowIso, refuse, richTextPolicy, ruleError, storedQuestion } from '../../lib/tms'
import { type AppEnv, type Ctx } from '../context'

/** Stored values of a bank item: the question sanitized and checked, and the classification. */
async function bankValues(c: Ctx, auth: Auth, body: BankItemInput) {
  const { id: _id, bank_id: _bank, ...q } = storedQuestion(body as Question, await richTextPolicy(c, auth.realm))
  refuse(await referenceProblems(c.env.DB, auth.realm, null, [{ q: q as Question, at: '' }]))
  const { difficulty, tags, grade_id, subject_id, standard_id, descriptor_id, batch_id, curriculum } = body
  return {
    ...q,
    statement_text: plainText(q.statement).slice(0, 1000),
    difficulty,
    tags,
    grade_id,
    subject_id,
    standard_id,
    descriptor_id,
    batch_id,
    curriculum,
    updated_at: nowIso(),
    updated_by: auth.nick,
  }
}

/** /tms/question_bank: reusable questions with their classification (seed 001 §3 "Question bank item"). */
export const bank = new Hono<AppEnv>()
  .route(
    '/',
    crud(bankEntity, {
      permissions: {
        list: 'tms_question_bank_list',
        get: ['tms_question_bank_get', 'tms_question_bank_edit'],
        create: 'tms_question_bank_create',
        edit: 'tms_question_bank_edit',
        delete: 'tms_question_bank_delete',
      },
      // Lists also filter by a tag or a category (members of the JSON lists); other fields filter through the descriptor.
      scope: (c, auth) => {
        const base = realmScope(bankEntity, auth)
        if (c.req.method !== 'GET') return base
        const q = c.req.query()
        return andScopes(base, jsonListHas('tags', q.tag), jsonListHas('categories', q.category)) ?? base
      },
      create: BankItemInput,
      update: BankItemInput,
      beforeCreate: async (c, auth, body) => {
        const values = await bankValues(c, auth, body)
        // One instant for both dates: a question counts as updated only once it changes after its creation.
        return { ...values, id: newId(), realm: auth.realm, created_at: values.updated_at, created_by: auth.nick }
      },
      beforeUpdate: (c, auth, body) => bankValues(c, auth, body),
    }),
  )
  /**
   * POST /tms/question_bank/classify: manual classification of the bank questions of the chosen types in a batch (or
   * of chosen ids): at least one type, and a complete topic (grade, subject, standard, descriptor).
   */
  .post(
    '/classify',
    guardedJson({ all: ['tms_question_bank_edit'] }, BankClassify, async (c, auth, body) => {
      const db = c.env.DB
      if (!body.batch_id && !body.ids.length) refuse([ruleError('batch_id', 'validation.tms.classify_scope')])
      const results = await bankItemsToClassify<BankItem>(db, auth.realm, { types: body.types, batchId: body.batch_id, ids: body.ids })
      const topic = {
        grade_id: body.grade_id,
        subject_id: body.subject_id,
        standard_id: body.standard_id,
        descriptor_id: body.descriptor_id,
        ...(body.curriculum ? { curriculum: body.curriculum } : {}),
      }
      const cols = Object.keys(topic)
      const now = nowIso()
      if (results.length) {
        await runBatch(
          db,
          results.flatMap((row) => [
            classifyBankItemStatement(db, auth.realm, row.id, topic, auth.nick, now),
            auditStatement(db, {
              realm: auth.realm,
              actor: auth.nick,
              action: 'classify',
              entity: bankEntity.name,
              entityId: row.id,
              before: Object.fromEntries(cols.map((k) => [k, row[k as keyof BankItem]])),
              after: topic,
              requestId: c.get('requestId'),
            }),
          ]),
        )
      }
      return c.json({ updated: results.length, ids: results.map((r) => r.id) })
    }),
  )
