import { Hono } from 'hono'
import * as v from 'valibot'
import { ListQuery } from '#shared/schemas/common'
import { Id } from '#shared/schemas/tms/common'
import {
  SurveyAnswerInput,
  SurveyPublishInput,
  SurveyUpdate,
  surveyAnswerProblems,
  surveyEntity,
  surveyUpdateProblems,
  type Survey,
} from '#shared/schemas/survey/survey'
import {
  answeredTargetsRemoved,
  answerRevisions,
  answerRooms,
  getSurvey,
  reviseStatements,
  surveyAnswer,
  surveyAnswers,
  surveyResult,
  surveyTable,
  surveyTargets,
} from '../../db/survey'
import { SURVEY_TABLES, publicationTargets, replaceTargetStatements, roomFilter, type TargetRow } from '../../db/publication'
import { publicationChoices } from '../../db/rooms'
import type { Auth } from '../../db/sessions'
import { runBatch } from '../../db/batch'
import { deleteStatement, filterScope, insertStatement, listRows, realmScope, updateStatement } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, auditBy, nowIso, refuse, ruleError } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { checkedTargets, newPublication, publishBatch, refuseDates, requirePublication, withTargets, type PublishedKind } from '../publication'
import { requireSurveyModel } from './model'

/** Published surveys as the publication steps see them (`../publication`). */
const SURVEY: PublishedKind<Survey> = {
  tables: SURVEY_TABLES,
  entity: 'survey_survey',
  read: getSurvey,
  notFound: { cause: 'survey_not_found', noun: 'Survey' },
}
const requireSurvey = (c: Ctx, auth: Auth) => requirePublication(c, auth, SURVEY)

const ResultQuery = v.object({ room: v.optional(Id) })

/** /survey/survey: surveys published to rooms, room members or room groups; their answers and results (issue 19). */
export const surveySurvey = new Hono<AppEnv>()
  /** GET /survey/survey/options: what a publication may target (rooms with members, groups), to publish or to change one. */
  .get(
    '/options',
    guarded({ any: ['survey_survey_publish', 'survey_survey_edit'] }, async (c, auth) => c.json(await publicationChoices(c.env.DB, auth.realm))),
  )
  /** GET /survey/survey: published surveys with their date status and answer counts (status, model, room, dates). */
  .get(
    '/',
    guarded({ all: ['survey_survey_list'] }, async (c, auth) => {
      const q = c.req.query()
      const extra = andScopes(filterScope(surveyEntity, q), roomFilter(SURVEY_TABLES, q.room))
      return c.json(await listRows(c.env.DB, surveyEntity, realmScope(surveyEntity, auth), parse(ListQuery, q), extra))
    }),
  )
  .get(
    '/:id',
    guarded({ any: ['survey_survey_list', 'survey_survey_edit', 'survey_survey_result'] }, async (c, auth) => {
      const s = await requireSurvey(c, auth)
      return c.json({ ...s, targets: await surveyTargets(c.env.DB, auth.realm, s.id) })
    }),
  )
  /** POST /survey/survey: publishes a model (a copy of its questions); a model without questions cannot be published. */
  .post(
    '/',
    guardedJson({ all: ['survey_survey_publish'] }, SurveyPublishInput, async (c, auth, input) => {
      const db = c.env.DB
      const model = await requireSurveyModel(c, auth, input.model_id)
      if (!model.questions.length) throw apiError(422, 'survey_no_questions', 'validation.survey.no_questions', 'model_id', model.id)
      const publish_at = input.publish_at ?? nowIso()
      refuseDates({ publish_at, expire_at: input.expire_at })
      const targets = await checkedTargets(c, auth, input)
      const { id, realm, stamps } = newPublication(auth)
      const row = {
        id,
        realm,
        model_id: model.id,
        publication_type: input.publication_type,
        publish_at,
        expire_at: input.expire_at,
        title: model.title,
        description: model.description,
        questions: model.questions,
        question_count: model.questions.length,
        is_required: model.is_required,
        confirmation_message: model.confirmation_message,
        ...stamps,
      }
      return c.json(await publishBatch(c, auth, SURVEY, { id, insert: insertStatement(db, surveyTable, row), targets, audit: row }), 201)
    }),
  )
  /**
   * PUT /survey/survey/{id}: a published survey's dates and, with `publication_type`, its targets (replaced). Its
   * questions stay. A changed date may not be in the past, the end comes after the start, an answered survey keeps
   * its start, and a target that reached an answer cannot be removed (422 `target_answered`, per target).
   */
  .put(
    '/:id',
    guardedJson({ all: ['survey_survey_edit'] }, SurveyUpdate, async (c, auth, body) => {
      const db = c.env.DB
      const existing = await requireSurvey(c, auth)
      const dates = { publish_at: body.publish_at ?? existing.publish_at, expire_at: body.expire_at === undefined ? existing.expire_at : body.expire_at }
      const problems = surveyUpdateProblems(existing, dates, Date.now()).map((p) => ruleError(p.field, p.message, dates[p.field as keyof typeof dates]))
      const before = await surveyTargets(db, auth.realm, existing.id)
      let targets: { rows: TargetRow[] } | null = null
      if (body.publication_type) {
        const found = await publicationTargets(db, auth.realm, { ...body, publication_type: body.publication_type })
        problems.push(...found.problems)
        targets = found
        const field = { all: 'rooms', members: 'members', group: 'groups' }[body.publication_type]
        for (const t of await answeredTargetsRemoved(db, auth.realm, existing.id, before, found.rows))
          problems.push(
            ruleError(
              field,
              'validation.survey.target_answered',
              t.group_name ?? (t.nick ? `${t.nick} (${t.room_name ?? t.room_id})` : (t.room_name ?? t.room_id)),
            ),
          )
      }
      refuse(problems)
      const values = {
        ...dates,
        ...(body.publication_type ? { publication_type: body.publication_type } : {}),
        updated_at: nowIso(),
        updated_by: auth.nick,
      }
      await runBatch(db, [
        updateStatement(db, surveyTable, realmScope(surveyTable, auth), existing.id, values),
        ...(targets ? replaceTargetStatements(db, SURVEY_TABLES, auth.realm, existing.id, targets.rows) : []),
        auditBy(c, auth, {
          action: 'update',
          entity: 'survey_survey',
          entityId: existing.id,
          before: {
            publish_at: existing.publish_at,
            expire_at: existing.expire_at,
            publication_type: existing.publication_type,
            ...(targets ? { targets: before.map(({ room_id, nick, group_id }) => ({ room_id, nick, group_id })) } : {}),
          },
          after: { ...values, ...(targets ? { targets: targets.rows } : {}) },
        }),
      ])
      return c.json(await withTargets(c, auth, SURVEY, existing.id))
    }),
  )
  /**
   * DELETE /survey/survey/{id}: withdraws a publication (it leaves the students' lists; the model may change again
   * once none is left). A survey with answers is refused (409 `survey_has_answers`): close it with an end date.
   */
  .delete(
    '/:id',
    guarded({ all: ['survey_survey_delete'] }, async (c, auth) => {
      const db = c.env.DB
      const existing = await requireSurvey(c, auth)
      if (existing.answer_count > 0) throw apiError(409, 'survey_has_answers', 'validation.survey.withdraw_answered', 'id', existing.id)
      await runBatch(db, [
        deleteStatement(db, surveyTable, realmScope(surveyTable, auth), existing.id),
        auditBy(c, auth, {
          action: 'delete',
          entity: 'survey_survey',
          entityId: existing.id,
          before: { ...existing, targets: await surveyTargets(db, auth.realm, existing.id) },
        }),
      ])
      return c.body(null, 204)
    }),
  )
  /** GET /survey/survey/{id}/answers: who answered (name, room, when, revisions). */
  .get(
    '/:id/answers',
    guarded({ any: ['survey_survey_list', 'survey_survey_edit'] }, async (c, auth) => {
      const s = await requireSurvey(c, auth)
      return c.json({ survey: s, items: await surveyAnswers(c.env.DB, auth.realm, s.id) })
    }),
  )
  /** GET /survey/survey/{id}/answers/{answerId}: one answer with its revision history. */
  .get(
    '/:id/answers/:answerId',
    guarded({ all: ['survey_survey_edit'] }, async (c, auth) => {
      const s = await requireSurvey(c, auth)
      const answerId = parse(Id, pathParam(c, 'answerId'))
      const answer = await surveyAnswer(c.env.DB, auth.realm, s.id, { id: answerId })
      if (!answer) throw apiError(404, 'not_found', `Answer ${answerId} was not found.`, 'answerId', answerId)
      return c.json({ survey: s, answer, revisions: await answerRevisions(c.env.DB, auth.realm, answer.id) })
    }),
  )
  /** PUT /survey/survey/{id}/answers/{answerId}: staff revise an answer (the answer rules apply; the revision is kept). */
  .put(
    '/:id/answers/:answerId',
    guardedJson({ all: ['survey_survey_edit'] }, SurveyAnswerInput, async (c, auth, input) => {
      const db = c.env.DB
      const s = await requireSurvey(c, auth)
      const answerId = parse(Id, pathParam(c, 'answerId'))
      const answer = await surveyAnswer(db, auth.realm, s.id, { id: answerId })
      if (!answer) throw apiError(404, 'not_found', `Answer ${answerId} was not found.`, 'answerId', answerId)
      const { problems, stored } = surveyAnswerProblems(s, input.answers)
      refuse(problems.map((p) => ruleError(p.field, p.message, p.value)))
      await runBatch(db, [
        ...reviseStatements(db, auth.realm, auth.nick, answer, stored),
        auditBy(c, auth, {
          action: 'revise',
          entity: 'survey_answer',
          entityId: answer.id,
          before: answer.answers,
          after: stored,
        }),
      ])
      const saved = (await surveyAnswer(db, auth.realm, s.id, { id: answer.id }))!
      return c.json({ survey: s, answer: saved, revisions: await answerRevisions(db, auth.realm, answer.id) })
    }),
  )
  /** GET /survey/survey/{id}/result?room=: per question counts and percentages (and the rooms with answers). */
  .get(
    '/:id/result',
    guarded({ all: ['survey_survey_result'] }, async (c, auth) => {
      const s = await requireSurvey(c, auth)
      const q = parse(ResultQuery, c.req.query())
      const [result, rooms] = await Promise.all([surveyResult(c.env.DB, auth.realm, s, q.room ?? null), answerRooms(c.env.DB, auth.realm, s.id)])
      return c.json({ survey: { id: s.id, title: s.title, status: s.status, rooms: s.rooms }, room: q.room ?? null, rooms, ...result })
    }),
  )
