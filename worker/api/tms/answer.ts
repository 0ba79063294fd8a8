import { Hono } from 'hono'
import { PAID_OPERATIONS, PaidConfirmation } from '#shared/schemas/ai'
import { ListQuery } from '#shared/schemas/common'
import type { ErrorItem } from '#shared/schemas/error'
import { Id } from '#shared/schemas/tms/common'
import type { Question } from '#shared/schemas/tms/question'
import { questionType } from '#shared/schemas/tms/question-types'
import { skillsScore, type TeacherMark } from '#shared/schemas/tms/correction'
import { aiApiError, chooseTextEngine, settingsOf, textFor } from '../../ai'
import { reviseAnswer, type RevisedQuestion, type RevisionResult } from '../../ai/answer-revision'
import { paidOperation } from '../../ai/paid'
import { contentPrices } from '../../db/ledger-catalog'
import {
  answerById,
  answerRowsForExport,
  correctionHistory,
  correctionStatements,
  deleteStartStatement,
  essaySkills,
  getStart,
  revisionEndStatement,
  revisionStartStatement,
  studentAnswer,
  type AnswerRecord,
} from '../../db/answer'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import type { Auth } from '../../db/sessions'
import { getTask, visibleTasksScope } from '../../db/tms-task'
import { modelVersionContent } from '../../db/tms'
import { answerable, csvText, thousandths, validCorrectionScore } from '../../lib/answer'
import { answerEntity, CorrectionInput } from '../../lib/answer-schemas'
import { DELIVERED_STATES, transition, type AnswerEvent } from '../../lib/answer-state'
import { filterScope, listRows, type Scope } from '../../lib/entity'
import { ApiError, apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { andScopes, newId, nowIso } from '../../lib/tms'
import { recomputeAfterCorrection } from '../../db/achievement'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'

const LIST = { all: ['tms_answer_list'] }
const CORRECT = { all: ['tms_task_correct'] }
/** Most rows one CSV export writes. */
const CSV_CAP = 10_000

/**
 * Answers a teacher may see: every answer of the realm with tms_task_list_others; otherwise the answers to tasks they
 * published or that reach rooms they are a member of (the same tasks the task list shows them).
 */
function answerScope(auth: Auth): Scope {
  const base = { where: 'realm = ?', params: [auth.realm] as unknown[] }
  if (auth.permissions.has('tms_task_list_others')) return base
  const visible = visibleTasksScope(auth.realm, auth.nick)
  return { where: `realm = ? AND task_id IN (SELECT id FROM tms_task WHERE ${visible.where})`, params: [auth.realm, ...visible.params] }
}

async function requireAnswer(c: Ctx, auth: Auth): Promise<AnswerRecord> {
  const id = parse(Id, pathParam(c, 'id'))
  const found = await answerById(c.env.DB, auth.realm, id)
  if (!found) throw apiError(404, 'not_found', 'answer.error.answer_not_found', 'id', id)
  return found
}

async function questionsOf(c: Ctx, auth: Auth, taskId: string): Promise<Question[]> {
  const task = await getTask(c.env.DB, auth.realm, taskId)
  if (!task) return []
  const content = (await modelVersionContent(c.env.DB, auth.realm, task.model_id, task.model_version)) as { questions: Question[] } | null
  return content?.questions ?? []
}

const json = <T>(text: string) => JSON.parse(text) as T

/** The written questions a teacher may mark errors in (seed 001 §3 Correction "custom errors"). */
const MARKABLE = new Set(['text', 'text_ai', 'essay'])

/** Each essay question's assessed skills (id, name, weight), for the skill grades of the correction. */
async function essaySkillsOf(c: Ctx, auth: Auth, questions: Question[]) {
  const out: Record<string, { id: string; name: string; weight: number }[]> = {}
  for (const q of questions)
    if (q.type === 'essay' && q.id) out[q.id] = await essaySkills(c.env.DB, auth.realm, q.options.assessed_skill_ids, q.options.assessed_skill_group_id)
  return out
}

/** The answer as the correction screen reads it: the student's answers, the automatic and the teacher's scores, history. */
async function answerDetail(c: Ctx, auth: Auth, a: AnswerRecord) {
  const [task, questions, history, assistant] = await Promise.all([
    getTask(c.env.DB, auth.realm, a.task_id),
    questionsOf(c, auth, a.task_id),
    correctionHistory(c.env.DB, auth.realm, a.id),
    assistantOf(c, auth),
  ])
  const essaySkills = await essaySkillsOf(c, auth, questions)
  return {
    id: a.id,
    task: task && { id: task.id, title: task.title, expire_at: task.expire_at, correct_at: task.correct_at, display_answer_at: task.display_answer_at },
    nick: a.nick,
    room_id: a.room_id,
    status: a.status,
    answers: json<Record<string, unknown>>(a.answers),
    opened_at: a.opened_at,
    finished_at: a.finished_at,
    delivered_at: a.delivered_at,
    duration_seconds: a.duration_seconds,
    delivery: a.delivery,
    offline: a.offline === 1,
    auto_scores: json<Record<string, number>>(a.auto_scores),
    scores: json<Record<string, number>>(a.scores),
    comments: json<Record<string, string>>(a.comments),
    final_considerations: a.final_considerations,
    score: a.score,
    max_score: a.max_score,
    ai_revision: a.ai_revision,
    ai_result: json<Partial<RevisionResult> & { engine?: string; skills_named?: Record<string, string> }>(a.ai_result || '{}'),
    ai_comment: a.ai_comment,
    /** The teacher's grades of each essay's assessed skills (out of 10), the skills to grade, and the marks added by hand. */
    skill_grades: json<Record<string, Record<string, number>>>(a.skill_grades),
    essay_skills: essaySkills,
    marks: json<Record<string, TeacherMark[]>>(a.marks),
    opinion: a.opinion,
    opinion_comment: a.opinion_comment,
    corrected_by: a.corrected_by,
    corrected_at: a.corrected_at,
    questions,
    history: history.map((h) => ({
      ...h,
      scores: json<Record<string, number>>(h.scores),
      comments: json<Record<string, string>>(h.comments),
      skill_grades: json<Record<string, Record<string, number>>>(h.skill_grades),
      marks: json<Record<string, TeacherMark[]>>(h.marks),
    })),
    /** The AI correction assistant: the engine the realm's settings choose (local: no model), and its price. */
    assistant: { ...assistant, revisable: questions.some((q) => q.type === 'text_ai' || q.type === 'essay') },
  }
}

/** The realm's text engine for the assistant (a missing setting reported, never faked) and the revision's price. */
async function assistantOf(c: Ctx, auth: Auth) {
  const [settings, prices] = await Promise.all([
    settingsOf(c.env, auth.realm).catch(() => null),
    contentPrices(c.env.DB, auth.realm, [PAID_OPERATIONS.answer_revision]),
  ])
  const chosen = settings ? chooseTextEngine(c.env, settings) : null
  const price = prices.get(PAID_OPERATIONS.answer_revision) ?? 0
  return { engine: chosen?.engine.kind ?? 'local', problem: chosen?.problem ?? null, price, charged: settings?.ledgerEnabled ? price : 0 }
}

/** The answer's written questions the assistant revises (text_ai, essays) that the student wrote something for. */
async function revisedQuestions(c: Ctx, auth: Auth, a: AnswerRecord): Promise<{ questions: RevisedQuestion[]; language: string }> {
  const answers = json<Record<string, { text?: string }>>(a.answers)
  const all = await questionsOf(c, auth, a.task_id)
  const out: RevisedQuestion[] = []
  let language = ''
  for (const q of all) {
    const text = answers[q.id ?? '']?.text?.trim() ?? ''
    if (!text || (q.type !== 'text_ai' && q.type !== 'essay')) continue
    const base = { id: q.id ?? '', statement: q.statement, score: q.score, text, reference: '', language: '', minWords: 0, maxWords: 0, skills: [] }
    if (q.type === 'text_ai') out.push({ ...base, type: 'text_ai', reference: q.comment ?? '' })
    else {
      const o = q.options
      language ||= o.language
      const skills = await essaySkills(c.env.DB, auth.realm, o.assessed_skill_ids, o.assessed_skill_group_id)
      out.push({ ...base, type: 'essay', language: o.language, minWords: o.min_word_count, maxWords: o.max_word_count, skills })
    }
  }
  return { questions: out, language: language || 'pt-BR' }
}

const EVENTS: Record<(typeof CorrectionInput.entries.action.options)[number], AnswerEvent> = {
  save: 'save_correction',
  finalize: 'finalize',
  request_adjustments: 'request_adjustments',
}

/**
 * /tms/answer: students' answers for teachers (issue 17, seed 001 §2 `tms/answer`, `tms/task/detail/{taskId}`,
 * `tms/task/{taskId}/{answerId}/correct`): the list with its filters and CSV, a task's deliveries, one answer and its
 * correction (save, finalize, request adjustments) with the history.
 */
export const answer = new Hono<AppEnv>()
  /** GET /tms/answer: answers (limit, offset, like, order; task_id, room_id, nick, status, delivery, delivered_at dates). */
  .get(
    '/',
    guarded(LIST, async (c, auth) => {
      const q = c.req.query()
      return c.json(await listRows(c.env.DB, answerEntity, answerScope(auth), parse(ListQuery, q), filterScope(answerEntity, q)))
    }),
  )
  /** GET /tms/answer/csv: the list's rows under the same filters as CSV (at most 10,000, newest delivery first). */
  .get(
    '/csv',
    guarded(LIST, async (c, auth) => {
      const scope = andScopes(answerScope(auth), filterScope(answerEntity, c.req.query()))!
      const rows = await answerRowsForExport(c.env.DB, scope.where, scope.params, CSV_CAP)
      const header = ['task', 'student', 'nick', 'room', 'status', 'delivery', 'offline', 'opened_at', 'delivered_at', 'duration_seconds', 'score', 'max_score']
      const body = csvText([
        header,
        ...rows.map((r) => [
          r.task_title,
          r.student_name,
          r.nick,
          r.room_name,
          r.status,
          r.delivery,
          r.offline ? 1 : 0,
          r.opened_at,
          r.delivered_at,
          r.duration_seconds,
          r.score,
          r.max_score,
        ]),
      ])
      return c.body(body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="answers-${nowIso().slice(0, 10)}.csv"`,
        'Cache-Control': 'no-store',
      })
    }),
  )
  /** GET /tms/answer/task/{taskId}: the task's deliveries (who, when, on time or late, status), paged like the list. */
  .get(
    '/task/:taskId',
    guarded({ all: ['tms_task_get'] }, async (c, auth) => {
      const taskId = parse(Id, pathParam(c, 'taskId'))
      const task = await getTask(c.env.DB, auth.realm, taskId)
      if (!task) throw apiError(404, 'not_found', 'answer.error.task_not_found', 'task_id', taskId)
      const q = c.req.query()
      const scope = { where: 'realm = ? AND task_id = ?', params: [auth.realm, task.id] }
      const page = await listRows(c.env.DB, answerEntity, scope, parse(ListQuery, q), filterScope(answerEntity, { ...q, task_id: '' }))
      return c.json({ task: { id: task.id, title: task.title, status: task.status, expire_at: task.expire_at }, ...page })
    }),
  )
  /**
   * DELETE /tms/answer/task/{taskId}/start/{nick}: restores a student's activity timer (seed 001 §6): their first open
   * is forgotten, so their receipts stop counting and the next open starts the time anew. Not once delivered.
   */
  .delete(
    '/task/:taskId/start/:nick',
    guarded(CORRECT, async (c, auth) => {
      const db = c.env.DB
      const taskId = parse(Id, pathParam(c, 'taskId'))
      const nick = pathParam(c, 'nick')
      const [start, answer] = await Promise.all([getStart(db, auth.realm, taskId, nick), studentAnswer(db, auth.realm, taskId, nick)])
      if (!start) throw apiError(404, 'not_found', 'answer.error.start_not_found', 'nick', nick)
      if (answer && DELIVERED_STATES.includes(answer.status)) throw apiError(409, 'already_submitted', 'answer.error.already_submitted', 'nick', nick)
      await runBatch(db, [
        deleteStartStatement(db, auth.realm, taskId, nick),
        auditStatement(db, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'restore_timer',
          entity: 'tms_answer_start',
          entityId: `${taskId}/${nick}`,
          before: { ...start },
          requestId: c.get('requestId'),
        }),
      ])
      return c.body(null, 204)
    }),
  )
  /** GET /tms/answer/{id}: one answer with the task's questions (and keys), its scores, correction and history. */
  .get(
    '/:id',
    guarded({ any: ['tms_task_correct', 'tms_answer_list'] }, async (c, auth) => c.json(await answerDetail(c, auth, await requireAnswer(c, auth)))),
  )
  /**
   * POST /tms/answer/{id}/ai-revision: the AI correction assistant (seed 001 §4 "AI revision") revises the answer's
   * text_ai and essay questions through the realm's text engine — proposed scores per assessed skill, errors by
   * category with explanations, a comment (it becomes the AI comment the teacher edits) — as a paid operation: the
   * price the teacher confirmed (confirm_points) is debited first and refunded when the provider fails; the same
   * idempotency_key is the same revision. The revision is in_progress meanwhile, then success or fail.
   */
  .post(
    '/:id/ai-revision',
    guardedJson(CORRECT, PaidConfirmation, async (c, auth, body) => {
      const db = c.env.DB
      const a = await requireAnswer(c, auth)
      const step = transition(a.status, 'save_correction')
      if (!step.ok) throw apiError(409, step.cause, `answer.error.${step.cause}`, 'status', a.status)
      const { questions, language } = await revisedQuestions(c, auth, a)
      if (!questions.length) throw apiError(409, 'ai_revision_unavailable', 'correct.ai.unavailable', 'id', a.id)
      let engine
      try {
        engine = (await textFor(c.env, auth.realm)).engine
      } catch (err) {
        throw aiApiError(err)
      }
      const [started] = await runBatch(db, [revisionStartStatement(db, auth.realm, a.id, nowIso())])
      if (!started.meta.changes) throw apiError(409, 'answer_changed', 'answer.error.answer_changed', 'status', a.status)
      try {
        const { operation, replayed } = await paidOperation(
          c.env,
          { realm: auth.realm, nick: auth.nick },
          {
            kind: 'answer_revision',
            provider: engine.kind,
            idempotencyKey: body.idempotency_key,
            confirmPoints: body.confirm_points,
            request: { answer: a.id, questions: questions.map((q) => [q.id, q.text]) },
            requestId: c.get('requestId'),
          },
          async () => {
            const out = await reviseAnswer(engine, questions, language)
            // The skills' names as they were graded (a skill renamed or removed later still reads).
            const named = Object.fromEntries(questions.flatMap((q) => q.skills.map((k) => [k.id, k.name])))
            return { ...out.result, engine: out.engine, skills_named: named }
          },
        )
        const result = operation.result as RevisionResult & { engine: string }
        await runBatch(db, [
          revisionEndStatement(db, auth.realm, a.id, { ok: true, result: JSON.stringify(result), comment: result.comment, operation: operation.id }, nowIso()),
        ])
        return c.json(await answerDetail(c, auth, (await answerById(db, auth.realm, a.id))!), replayed ? 200 : 201)
      } catch (err) {
        // The provider failed (refunded): the revision failed. Refused before any call (price, credits, cap): as it was.
        const failed = !(err instanceof ApiError) || err.errors.some((e) => e.cause === 'ai_provider_failed')
        await runBatch(db, [
          revisionEndStatement(db, auth.realm, a.id, failed ? { ok: false, operation: null } : { ok: false, restore: a.ai_revision }, nowIso()),
        ])
        throw aiApiError(err)
      }
    }),
  )
  /**
   * PUT /tms/answer/{id}/correction: per-question scores (not above the question's score, on its step) and comments,
   * final considerations, the AI comment as edited; `save` keeps it in review, `finalize` concludes it (every question
   * a teacher scores needs a score), `request_adjustments` sends it back to the student as pending and discards the
   * unsaved changes (only its comment is kept, in the history).
   */
  .put(
    '/:id/correction',
    guardedJson(CORRECT, CorrectionInput, async (c, auth, body) => {
      const db = c.env.DB
      const a = await requireAnswer(c, auth)
      const aiComment = body.action === 'request_adjustments' ? a.ai_comment : (body.ai_comment ?? a.ai_comment)
      const step = transition(a.status, EVENTS[body.action], { aiComment: aiComment.trim() !== '' })
      if (!step.ok) throw apiError(409, step.cause, `answer.error.${step.cause}`, 'status', a.status)
      const questions = (await questionsOf(c, auth, a.task_id)).filter(answerable)
      const byId = new Map(questions.map((q) => [q.id ?? '', q]))
      let scores = json<Record<string, number>>(a.scores)
      let comments = json<Record<string, string>>(a.comments)
      let considerations = a.final_considerations
      let skillGrades = json<Record<string, Record<string, number>>>(a.skill_grades)
      let marks = json<Record<string, TeacherMark[]>>(a.marks)
      if (body.action !== 'request_adjustments') {
        const problems = Object.entries(body.scores).flatMap(([id, s]): ErrorItem[] => {
          const q = byId.get(id)
          if (!q) return [{ field: `scores.${id}`, cause: 'unknown_question', value: id, message: 'answer.error.unknown_question' }]
          return validCorrectionScore(q, s) ? [] : [{ field: `scores.${id}`, cause: 'invalid_score', value: s, message: 'answer.error.invalid_score' }]
        })
        for (const id of Object.keys(body.comments)) {
          if (!byId.has(id)) problems.push({ field: `comments.${id}`, cause: 'unknown_question', value: id, message: 'answer.error.unknown_question' })
        }
        const essays = new Map<string, { id: string; name: string; weight: number }[]>()
        for (const id of Object.keys(body.skill_grades)) {
          const q = byId.get(id)
          if (!q || q.type !== 'essay') {
            problems.push({ field: `skill_grades.${id}`, cause: 'not_essay', value: id, message: 'answer.error.not_essay' })
            continue
          }
          const skills = await essaySkills(db, auth.realm, q.options.assessed_skill_ids, q.options.assessed_skill_group_id)
          essays.set(id, skills)
          for (const skill of Object.keys(body.skill_grades[id]))
            if (!skills.some((k) => k.id === skill))
              problems.push({ field: `skill_grades.${id}.${skill}`, cause: 'unknown_skill', value: skill, message: 'answer.error.unknown_skill' })
        }
        const texts = json<Record<string, { text?: string }>>(a.answers)
        for (const [id, list] of Object.entries(body.marks)) {
          const q = byId.get(id)
          if (!q || !MARKABLE.has(q.type)) {
            problems.push({ field: `marks.${id}`, cause: 'not_markable', value: id, message: 'answer.error.not_markable' })
            continue
          }
          list.forEach((m, i) => {
            if (!(texts[id]?.text ?? '').includes(m.excerpt))
              problems.push({ field: `marks.${id}[${i}].excerpt`, cause: 'excerpt_not_found', value: m.excerpt, message: 'answer.error.excerpt_not_found' })
          })
        }
        if (problems.length) throw new ApiError(422, problems)
        skillGrades = { ...skillGrades, ...body.skill_grades }
        marks = { ...marks, ...body.marks }
        scores = { ...scores, ...body.scores }
        // An essay graded by skills takes its score from them (their weighted mean × the question's score).
        for (const [id, skills] of essays) {
          const fromSkills = skillsScore(skills, skillGrades[id] ?? {}, byId.get(id)!.score)
          if (fromSkills !== null) scores[id] = fromSkills
        }
        comments = { ...comments, ...body.comments }
        considerations = body.final_considerations
        if (body.action === 'finalize') {
          const missing = questions.filter((q) => questionType(q.type).scoring !== 'auto' && scores[q.id ?? ''] === undefined)
          if (missing.length) {
            throw new ApiError(
              422,
              missing.map((q) => ({ field: `scores.${q.id}`, cause: 'score_missing', value: q.id ?? null, message: 'answer.error.score_missing' })),
            )
          }
        }
      }
      const auto = json<Record<string, number>>(a.auto_scores)
      const total = thousandths(questions.reduce((sum, q) => sum + (scores[q.id ?? ''] ?? auto[q.id ?? ''] ?? 0), 0))
      const at = nowIso()
      const [update] = await runBatch(
        db,
        correctionStatements(
          db,
          auth.realm,
          a.id,
          a.status,
          {
            status: step.to,
            scores: JSON.stringify(scores),
            comments: JSON.stringify(comments),
            final_considerations: considerations,
            ai_comment: aiComment,
            skill_grades: JSON.stringify(skillGrades),
            marks: JSON.stringify(marks),
            score: total,
            corrected_by: auth.nick,
            corrected_at: at,
          },
          { id: newId(), action: body.action, comment: body.comment },
        ),
      )
      // Someone else changed the answer's state meanwhile (the student delivered again, another teacher finalized).
      if (!update.meta.changes) throw apiError(409, 'answer_changed', 'answer.error.answer_changed', 'status', a.status)
      if (body.action === 'finalize') await recomputeAfterCorrection(db, auth.realm, a.id)
      return c.json(await answerDetail(c, auth, (await answerById(db, auth.realm, a.id))!))
    }),
  )
