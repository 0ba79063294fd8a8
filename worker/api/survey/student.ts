import { Hono } from 'hono'
import { Id } from '#shared/schemas/tms/common'
import { SurveyAnswerInput, surveyAnswerProblems } from '#shared/schemas/survey/survey'
import { getSurvey, insertAnswerStatement, studentSurveys, surveyAnswer, surveyReach } from '../../db/survey'
import type { Auth } from '../../db/sessions'
import { runBatch } from '../../db/batch'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { auditBy, newId, nowIso, refuse, ruleError } from '../../lib/tms'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { studentList } from '../publication'

/** A published survey reaching the student, with the rooms it reaches them through; otherwise 404 (nothing revealed). */
async function reachingSurvey(c: Ctx, auth: Auth, raw: string) {
  const db = c.env.DB
  const id = parse(Id, raw)
  const survey = await getSurvey(db, auth.realm, id)
  const rooms = survey ? await surveyReach(db, auth.realm, id, auth.nick) : []
  // Scheduled surveys and others' are not revealed; an ended one still shows the student's own answer.
  if (!survey || survey.status === 'scheduled' || !rooms.length) throw apiError(404, 'survey_not_found', `Survey ${id} was not found.`, 'id', id)
  return { survey, rooms }
}

const studentView = (s: Awaited<ReturnType<typeof reachingSurvey>>['survey']) => ({
  id: s.id,
  title: s.title,
  description: s.description,
  questions: s.questions,
  is_required: s.is_required,
  publish_at: s.publish_at,
  expire_at: s.expire_at,
  status: s.status,
  /** Shown after sending (and with the student's answer afterwards). */
  confirmation_message: s.confirmation_message,
})

/**
 * /survey/student: the signed-in student's surveys (any signed-in user; only surveys published to them answer): the
 * list, one survey with their answer, and sending the answer (once; staff revise it afterwards).
 */
export const surveyStudent = new Hono<AppEnv>()
  .get('/', studentList(studentSurveys))
  .get(
    '/:id',
    guarded({}, async (c, auth) => {
      const { survey } = await reachingSurvey(c, auth, pathParam(c, 'id'))
      const mine = await surveyAnswer(c.env.DB, auth.realm, survey.id, { nick: auth.nick })
      return c.json({ ...studentView(survey), answer: mine ? { answers: mine.answers, created_at: mine.created_at } : null })
    }),
  )
  /** POST /survey/student/{id}/answer: the student's answer (required questions enforced); answers the confirmation message. */
  .post(
    '/:id/answer',
    guardedJson({}, SurveyAnswerInput, async (c, auth, input) => {
      const db = c.env.DB
      const { survey, rooms } = await reachingSurvey(c, auth, pathParam(c, 'id'))
      if (survey.status === 'expired') throw apiError(409, 'survey_expired', 'validation.survey.expired', 'id', survey.id)
      if (await surveyAnswer(db, auth.realm, survey.id, { nick: auth.nick }))
        throw apiError(409, 'survey_already_answered', 'validation.survey.already_answered', 'id', survey.id)
      const { problems, stored } = surveyAnswerProblems(survey, input.answers)
      refuse(problems.map((p) => ruleError(p.field, p.message, p.value)))
      const now = nowIso()
      const id = newId()
      await runBatch(db, [
        insertAnswerStatement(db, { id, realm: auth.realm, survey_id: survey.id, nick: auth.nick, room_id: rooms[0], answers: stored, at: now }),
        auditBy(c, auth, {
          action: 'answer',
          entity: 'survey_answer',
          entityId: id,
          after: stored,
        }),
      ])
      const saved = await surveyAnswer(db, auth.realm, survey.id, { nick: auth.nick })
      if (saved?.id !== id) throw apiError(409, 'survey_already_answered', 'validation.survey.already_answered', 'id', survey.id)
      return c.json({ id, confirmation_message: survey.confirmation_message, answers: stored }, 201)
    }),
  )
