import { Hono } from 'hono'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import type { Model } from '#shared/schemas/tms/model'
import type { Question } from '#shared/schemas/tms/question'
import type { Task } from '#shared/schemas/tms/task'
import {
  deliveredBefore,
  deliveryStatement,
  essaySkills,
  getStart,
  opinionStatement,
  persistAnswerFilesStatement,
  reachingRooms,
  startTask,
  studentAnswer,
  studentTasks,
  studentWriteStatement,
  tokenRoom,
  type AnswerRecord,
} from '../../db/answer'
import { aiSettingsRow, ESSAY_CHECK_LIMIT } from '../../db/ai'
import { runBatch } from '../../db/batch'
import { releaseCheck, reserveCheck } from '../../db/essay-check'
import type { Auth } from '../../db/sessions'
import { deleteTemporaryFileStatement, liveFilesByIds, uploadedFile } from '../../db/files'
import { auditStatement } from '../../db/audit'
import { getRealmRow, realmConfig } from '../../db/realms'
import { getTask } from '../../db/tms-task'
import { modelVersionContent } from '../../db/tms'
import {
  answerFileProblem,
  answerProblem,
  ESSAY_PAGE_MIN_PX,
  answerable,
  fileIdOf,
  fileKindsOf,
  lengthProblem,
  isAnswered,
  judgeWindow,
  type WindowInput,
  scoreAnswers,
  signReceipt,
  studentQuestion,
  thousandths,
  verifyReceipt,
} from '../../lib/answer'
import { CheckInput, DeliverInput, DraftInput, OpenInput, OpinionInput, StudentListQuery, type AnswerValue } from '../../lib/answer-schemas'
import { DELIVERED_STATES, EDITABLE_STATES, transition, type AnswerState } from '../../lib/answer-state'
import { UploadData, multipartBody, storeUpload } from '../../lib/file-store'
import { AiError, aiApiError, settingsOf } from '../../ai/index'
import { canTranscribe, transcribePages } from '../../ai/transcribe'
import { ApiError, apiError } from '../../lib/errors'
import { CheckerFailed, languageToolCheck, localCheck, tooManyErrors, type CheckMark } from '../../lib/essay-checker'
import { guarded, guardedJson } from '../../lib/guard'
import { newId, nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, origin, parse, pathParam } from '../context'

/** The visualize screens' answer id, named as the field the envelope reports. */
const AnswerPath = v.object({ answer_id: Id })

/** The task content a student performs: the model version the task was published with. */
type Content = Pick<Model, 'questions' | 'min_execution_time' | 'max_execution_time' | 'auto_draft' | 'token' | 'kind' | 'essay_transcription'>

/** The Worker secret that signs start receipts; without it nobody can open a task (503, the operator's setting). */
function receiptSecret(c: Ctx): string {
  const secret = c.env.ANSWER_RECEIPT_SECRET
  if (!secret) throw apiError(503, 'receipt_unavailable', 'answer.error.receipt_unavailable', 'receipt')
  return secret
}

/** The task, when it reaches the student (otherwise "task deleted or nonexistent", not revealing others' tasks). */
async function studentTask(c: Ctx, auth: Auth): Promise<{ task: Task; rooms: string[]; content: Content }> {
  const taskId = parse(Id, pathParam(c, 'taskId'))
  const [task, rooms] = await Promise.all([getTask(c.env.DB, auth.realm, taskId), reachingRooms(c.env.DB, auth.realm, taskId, auth.nick)])
  if (!task || !rooms.length) throw apiError(404, 'task_not_found', 'answer.error.task_not_found', 'task_id', taskId)
  if (task.status === 'scheduled' || task.status === 'paused')
    throw apiError(409, 'task_not_available', 'answer.error.task_not_available', 'task_id', task.status)
  const content = (await modelVersionContent(c.env.DB, auth.realm, task.model_id, task.model_version)) as Content | null
  if (!content) throw apiError(404, 'task_not_found', 'answer.error.task_not_found', 'task_id', taskId)
  return { task, rooms, content }
}

const refused = (status: 403 | 404 | 409 | 422 | 400 | 429 | 502, cause: string, field = 'task_id', value: unknown = null) =>
  apiError(status, cause, `answer.error.${cause}`, field, value)

/**
 * The window judgment of a write at `now` from the signed open (issue 17 "The window"): a draft's rule (`draft`), or
 * a delivery's with the time an offline device measured. Refused: 422 with the judgment's cause.
 */
function inWindow(task: Task, content: Content, start: { opened_at: string }, now: number, how: Pick<WindowInput, 'draft' | 'offlineElapsedMs'>) {
  const window = judgeWindow({
    now,
    openedAt: Date.parse(start.opened_at),
    expireAt: Date.parse(task.expire_at),
    correctAt: task.correct_at ? Date.parse(task.correct_at) : null,
    minMinutes: content.min_execution_time,
    maxMinutes: content.max_execution_time,
    ...how,
  })
  if (!window.ok) throw refused(422, window.cause, window.field, window.value)
  return window
}

/** Whether the student may see the correction: finalized, and the task's display-answer date reached. */
function correctionShown(status: string | null, task: Pick<Task, 'display_answer_at'>): boolean {
  const finalized = status === 'finished' || status === 'pending_agreement'
  return finalized && (!task.display_answer_at || Date.parse(task.display_answer_at) <= Date.now())
}

/** The AI revision's error marks per question (category, excerpt, explanation), as the correction stored them. */
function revisionMarks(aiResult: string): Record<string, { category: string; excerpt: string; explanation: string }[]> {
  const parsed = JSON.parse(aiResult || '{}') as {
    questions?: { question_id: string; errors?: { category: string; excerpt: string; explanation: string }[] }[]
  }
  return Object.fromEntries((parsed.questions ?? []).filter((q) => q.errors?.length).map((q) => [q.question_id, q.errors!]))
}

/** The student's answer as they see it: the correction only once finalized and from the task's display-answer date. */
function ownAnswer(a: AnswerRecord, task: Task) {
  const showCorrection = correctionShown(a.status, task)
  return {
    id: a.id,
    answer_id: a.client_id,
    status: a.status,
    answers: JSON.parse(a.answers) as Record<string, AnswerValue>,
    opened_at: a.opened_at,
    finished_at: a.finished_at,
    delivered_at: a.delivered_at,
    duration_seconds: a.duration_seconds,
    delivery: a.delivery,
    offline: a.offline === 1,
    correction: showCorrection
      ? {
          score: a.score,
          max_score: a.max_score,
          scores: { ...(JSON.parse(a.auto_scores) as Record<string, number>), ...(JSON.parse(a.scores) as Record<string, number>) },
          comments: JSON.parse(a.comments) as Record<string, string>,
          final_considerations: a.final_considerations,
          ai_comment: a.ai_comment,
          opinion: a.opinion,
          opinion_comment: a.opinion_comment,
          opinion_at: a.opinion_at,
          marks: revisionMarks(a.ai_result),
          /** The teacher's marks added by hand and grades of each essay's assessed skills (out of 10). */
          teacher_marks: JSON.parse(a.marks || '{}') as Record<string, { category: string; excerpt: string; explanation: string }[]>,
          skill_grades: JSON.parse(a.skill_grades || '{}') as Record<string, Record<string, number>>,
        }
      : null,
  }
}

/**
 * My answer to the task (404 when I have none, or, given `answerId`, when it is not that answer: another student's
 * answer id shows nothing), with the task's questions without their keys and the correction when it may be shown.
 */
async function answerView(c: Ctx, auth: Auth, answerId?: string) {
  const taskId = parse(Id, pathParam(c, 'taskId'))
  const [task, answer] = await Promise.all([getTask(c.env.DB, auth.realm, taskId), studentAnswer(c.env.DB, auth.realm, taskId, auth.nick)])
  if (!task || !answer || (answerId !== undefined && answer.id !== answerId))
    throw apiError(404, 'not_found', 'answer.error.answer_not_found', answerId === undefined ? 'task_id' : 'answer_id', answerId ?? taskId)
  const content = (await modelVersionContent(c.env.DB, auth.realm, task.model_id, task.model_version)) as Content | null
  const own = ownAnswer(answer, task)
  // The graded skills' names (only what the correction shows: nothing before it may be shown).
  const skills: Record<string, { id: string; name: string; weight: number }[]> = {}
  for (const q of content?.questions ?? [])
    if (own.correction && q.type === 'essay' && q.id && own.correction.skill_grades[q.id])
      skills[q.id] = await essaySkills(c.env.DB, auth.realm, q.options.assessed_skill_ids, q.options.assessed_skill_group_id)
  return c.json({
    task: {
      id: task.id,
      title: task.title,
      status: task.status,
      kind: content?.kind ?? null,
      expire_at: task.expire_at,
      display_answer_at: task.display_answer_at,
    },
    questions: (content?.questions ?? []).map((q) => studentQuestion(q, `${task.id}/${auth.nick}`)),
    answer: own,
    essay_skills: skills,
  })
}

/**
 * What a save or delivery carries, checked: the receipt the server signed for this student and task, and answers
 * to the task's own questions that fit their types; at least one answered question (seed 001 §5 "Answering").
 */
async function checkedAnswers(
  c: Ctx,
  auth: Auth,
  task: Task,
  content: Content,
  body: { receipt: string; answers: Record<string, AnswerValue> },
  delivering: boolean,
) {
  const receipt = await verifyReceipt(receiptSecret(c), body.receipt)
  if (!receipt || receipt.realm !== auth.realm || receipt.task !== task.id || receipt.nick !== auth.nick) throw refused(400, 'receipt_invalid', 'receipt')
  // A receipt from before a teacher restored the student's timer (the start row went) no longer counts.
  const start = await getStart(c.env.DB, auth.realm, task.id, auth.nick)
  if (!start || Date.parse(start.opened_at) !== receipt.opened) throw refused(400, 'receipt_invalid', 'receipt')
  const questions = new Map(content.questions.filter((q): q is Question & { id: string } => Boolean(q.id)).map((q) => [q.id, q]))
  const problems = Object.entries(body.answers).flatMap(([id, value]) => {
    const q = questions.get(id)
    const message = q ? (answerProblem(q, value) ?? lengthMessage(lengthProblem(q, value, delivering))) : 'answer.error.unknown_question'
    return message ? [{ field: `answers.${id}`, cause: message.split('.').pop()!, value: id, message }] : []
  })
  // An essay of a model whose essays are transcribed from photos is delivered with at least one photo (seed 001 §5).
  if (delivering && content.essay_transcription)
    for (const q of content.questions)
      if (q.type === 'essay' && q.id && isAnswered(q, body.answers[q.id]) && !body.answers[q.id]?.files?.length)
        problems.push({ field: `answers.${q.id}`, cause: 'essay_image_required', value: q.id, message: 'answer.error.essay_image_required' })
  if (problems.length) throw new ApiError(422, problems)
  const answered = content.questions.filter((q) => answerable(q) && isAnswered(q, body.answers[q.id ?? ''])).length
  if (!answered) throw refused(422, 'no_answer', 'answers')
  const { answers, files } = await ownFiles(c, auth, questions, body.answers)
  return { receipt, answered, start, answers, files }
}

/**
 * The files of media answers and essays from photos (issue 17): each must be the student's own upload of the realm,
 * of a kind the question takes (`answerFileProblem`); otherwise 422 on the question's field and nothing is written.
 * The answer keeps each file's address (its `cdn_full_url`, whether the device sent the id or the address), and the
 * files still temporary are persisted with the answer's write (`persistAnswerFilesStatement`; a temporary upload
 * would otherwise be removed after its hours).
 */
async function ownFiles(c: Ctx, auth: Auth, questions: Map<string, Question>, given: Record<string, AnswerValue>) {
  const refs = Object.values(given).flatMap((a) => a.files ?? [])
  if (!refs.length) return { answers: given, files: [] as string[] }
  const ids = [...new Set(refs.map(fileIdOf).filter((id): id is string => id !== null))]
  const [rows, realm] = await Promise.all([liveFilesByIds(c.env.DB, auth.realm, ids), getRealmRow(c.env.DB, auth.realm)])
  const byId = new Map(rows.map((r) => [r.id, r]))
  const rowOf = (ref: string) => byId.get(fileIdOf(ref) ?? '')
  const problems = Object.entries(given).flatMap(([id, a]) =>
    (a.files ?? []).flatMap((ref) => {
      const cause = answerFileProblem(questions.get(id)!, ref, rowOf(ref), auth.nick)
      return cause ? [{ field: `answers.${id}`, cause, value: ref, message: `answer.error.${cause}` }] : []
    }),
  )
  if (problems.length) throw new ApiError(422, problems)
  const base = realmConfig(realm!, origin(c), c.get('hostRealm') === null).files_base_url
  const answers = Object.fromEntries(
    Object.entries(given).map(([id, a]) => [id, a.files ? { ...a, files: a.files.map((ref) => uploadedFile(rowOf(ref)!, base).cdn_full_url) } : a]),
  )
  return { answers, files: rows.filter((r) => r.persist === 0).map((r) => r.id) }
}

/** The multipart body of the student's upload: the file and the question it answers. */
const FileForm = v.object({ data: UploadData, question_id: Id })
/** The upload an endpoint names by its id in the path. */
const FilePath = v.object({ file_id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/, 'validation.id')) })

/**
 * The task and question a student's upload or transcription is for, while the student may still answer it: the task
 * reaches them and they opened it (`task_not_opened`), their answer is not delivered (`already_submitted`), and the
 * draft rule of the window holds (before the deadline and within the maximum execution time). An answerable question
 * of the task, else `unknown_question` at `question_id`.
 */
async function answering(c: Ctx, auth: Auth, questionId: string) {
  const { task, content } = await studentTask(c, auth)
  const q = content.questions.find((x) => x.id === questionId)
  if (!q || !answerable(q)) throw refused(422, 'unknown_question', 'question_id', questionId)
  const db = c.env.DB
  const [existing, start] = await Promise.all([studentAnswer(db, auth.realm, task.id, auth.nick), getStart(db, auth.realm, task.id, auth.nick)])
  if (existing && !EDITABLE_STATES.includes(existing.status as AnswerState)) throw refused(409, 'already_submitted')
  if (!start) throw refused(409, 'task_not_opened')
  inWindow(task, content, start, Date.now(), { draft: true })
  return { task, content, q }
}

/** The kinds of file a question takes from the student: an essay's photos only when the model transcribes essays. */
const uploadKinds = (q: Question, content: Content) => (q.type === 'essay' && !content.essay_transcription ? [] : fileKindsOf(q))

/** POST …/transcribe: the essay question and its pages (ids or addresses of the student's uploads, in page order). */
const TranscribeInput = v.object({
  question_id: Id,
  files: v.pipe(
    v.array(v.pipe(v.string('validation.required'), v.minLength(1, 'validation.required'), v.maxLength(2000, 'validation.max_length'))),
    v.maxLength(20, 'validation.max_items'),
  ),
})

const lengthMessage = (cause: string | null) => (cause ? `answer.error.${cause}` : null)

/** 409 with the reason an answer could not be written: delivered before with this id, or already submitted. */
async function writeRefusal(c: Ctx, auth: Auth, clientId: string): Promise<ApiError> {
  if (await deliveredBefore(c.env.DB, auth.realm, auth.nick, clientId)) return refused(409, 'answer_already_registered', 'answer_id', clientId)
  return refused(409, 'already_submitted')
}

/**
 * /tms/answer-student: the signed-in student's tasks (issue 17, seed 001 §2 `mobile/tms`): their list, opening a task
 * (the signed start receipt), saving a draft, delivering (online or offline), their answer with its correction, and
 * their opinion on the AI comment. Any signed-in user may call it; only the tasks reaching them answer.
 */
export const answerStudent = new Hono<AppEnv>()
  /** GET /tms/answer-student: my tasks under a menu filter (all, class, group, tasks, delivered, expired, pending). */
  .get(
    '/',
    guarded({}, async (c, auth) => {
      const q = parse(StudentListQuery, c.req.query())
      const { rows, total } = await studentTasks(c.env.DB, auth.realm, auth.nick, q.filter, q.limit, q.offset)
      return c.json({
        // Scores only where the correction may be shown (finalized, from the display-answer date): none leak before.
        items: rows.map((r) => ({
          ...r,
          ...(correctionShown(r.answer_status, r) ? {} : { score: null }),
          show_timer: r.show_timer === 1,
          token: r.token === 1,
        })),
        total,
        limit: q.limit,
        offset: q.offset,
        filter: q.filter,
      })
    }),
  )
  /**
   * POST /tms/answer-student/{taskId}/open: the task to perform (questions without their keys) and a start receipt
   * the server signs with the first open time. A token-protected task needs a live code of one of the student's rooms
   * on the first open.
   */
  .post(
    '/:taskId/open',
    guardedJson({}, OpenInput, async (c, auth, body) => {
      const secret = receiptSecret(c)
      const { task, rooms, content } = await studentTask(c, auth)
      const db = c.env.DB
      const [existing, started] = await Promise.all([studentAnswer(db, auth.realm, task.id, auth.nick), getStart(db, auth.realm, task.id, auth.nick)])
      if (existing && DELIVERED_STATES.includes(existing.status)) throw refused(409, 'already_submitted')
      if (task.status === 'expired') throw refused(422, 'deadline_ended', 'task_id', task.expire_at)
      let room = started?.room_id ?? rooms[0]
      if (task.token && !started) {
        const code = body.token?.trim()
        const found = code ? await tokenRoom(db, auth.realm, task.id, code, rooms) : null
        if (!found) throw refused(403, code ? 'token_invalid' : 'token_required', 'token', code ?? null)
        room = found
      }
      const start = started ?? (await startTask(db, auth.realm, task.id, auth.nick, room, nowIso()))
      const receipt = await signReceipt(secret, { realm: auth.realm, task: task.id, nick: auth.nick, room: start.room_id, opened: Date.parse(start.opened_at) })
      const seed = `${task.id}/${auth.nick}`
      return c.json({
        task: {
          id: task.id,
          title: task.title,
          kind: content.kind,
          publish_at: task.publish_at,
          expire_at: task.expire_at,
          display_answer_at: task.display_answer_at,
          show_timer: task.show_timer,
          min_execution_time: content.min_execution_time,
          max_execution_time: content.max_execution_time,
          auto_draft: content.auto_draft,
          token: task.token,
          essay_transcription: Boolean(content.essay_transcription),
          // Who transcribes essay photos: the realm's vision provider, or the student's device (on-device OCR).
          transcription: (content.essay_transcription ? (canTranscribe(c.env, await settingsOf(c.env, auth.realm)) ? 'vision' : 'device') : null) as
            'vision' | 'device' | null,
        },
        questions: content.questions.map((q) => studentQuestion(q, seed)),
        receipt,
        opened_at: start.opened_at,
        server_time: nowIso(),
        answer: existing ? ownAnswer(existing, task) : null,
      })
    }),
  )
  /** PUT /tms/answer-student/{taskId}/draft: saves the answer as a draft (needs at least one answered question). */
  .put(
    '/:taskId/draft',
    guardedJson({}, DraftInput, async (c, auth, body) => {
      const { task, content } = await studentTask(c, auth)
      const db = c.env.DB
      const { answered, start, answers, files } = await checkedAnswers(c, auth, task, content, body, false)
      const existing = await studentAnswer(db, auth.realm, task.id, auth.nick)
      const step = transition(existing?.status ?? null, 'save_draft')
      if (!step.ok) throw await writeRefusal(c, auth, body.answer_id)
      const now = Date.now()
      inWindow(task, content, start, now, { draft: true })
      const { auto, max } = scoreAnswers(content.questions, answers)
      const at = new Date(now).toISOString()
      const [result] = await runBatch(db, [
        studentWriteStatement(
          db,
          {
            id: existing?.id ?? newId(),
            realm: auth.realm,
            task_id: task.id,
            nick: auth.nick,
            room_id: start.room_id,
            client_id: body.answer_id,
            status: step.to,
            answers: JSON.stringify(answers),
            answered_count: answered,
            opened_at: start.opened_at,
            finished_at: null,
            delivered_at: existing?.delivered_at ?? null,
            duration_seconds: existing?.duration_seconds ?? null,
            delivery: existing?.delivery ?? null,
            offline: 0,
            auto_scores: JSON.stringify(auto),
            score: null,
            max_score: max,
            created_at: at,
            updated_at: at,
          },
          EDITABLE_STATES,
        ),
        ...(files.length ? [persistAnswerFilesStatement(db, { realm: auth.realm, task_id: task.id, nick: auth.nick, at, files })] : []),
      ])
      if (!result.meta.changes) throw await writeRefusal(c, auth, body.answer_id)
      return c.json(ownAnswer((await studentAnswer(db, auth.realm, task.id, auth.nick))!, task))
    }),
  )
  /**
   * POST /tms/answer-student/{taskId}/deliver: delivers the answer, online or done offline (`offline.elapsed_ms`),
   * judged by the signed open time: on time, or delayed (offline work finished in time, arriving after expiry).
   * No resubmission; the same answer id delivered again is counted once.
   */
  .post(
    '/:taskId/deliver',
    guardedJson({}, DeliverInput, async (c, auth, body) => {
      const { task, content } = await studentTask(c, auth)
      const db = c.env.DB
      const existing = await studentAnswer(db, auth.realm, task.id, auth.nick)
      // A repeated sync first: it is answered as registered whatever else changed since.
      if (existing && (await deliveredBefore(db, auth.realm, auth.nick, body.answer_id)))
        throw refused(409, 'answer_already_registered', 'answer_id', body.answer_id)
      const step = transition(existing?.status ?? null, 'deliver')
      if (!step.ok) throw refused(409, step.cause)
      const { answered, start, answers, files } = await checkedAnswers(c, auth, task, content, body, true)
      const now = Date.now()
      const window = inWindow(task, content, start, now, { offlineElapsedMs: body.offline?.elapsed_ms })
      const { auto, max } = scoreAnswers(content.questions, answers)
      const at = new Date(now).toISOString()
      const autoTotal = thousandths(Object.values(auto).reduce((s, x) => s + x, 0))
      const statements = [
        studentWriteStatement(
          db,
          {
            id: existing?.id ?? newId(),
            realm: auth.realm,
            task_id: task.id,
            nick: auth.nick,
            room_id: start.room_id,
            client_id: body.answer_id,
            status: step.to,
            answers: JSON.stringify(answers),
            answered_count: answered,
            opened_at: start.opened_at,
            finished_at: new Date(window.finishedAt).toISOString(),
            delivered_at: at,
            duration_seconds: Math.round(window.elapsedMs / 1000),
            delivery: window.delivery,
            offline: body.offline ? 1 : 0,
            auto_scores: JSON.stringify(auto),
            score: autoTotal,
            max_score: max,
            created_at: at,
            updated_at: at,
          },
          EDITABLE_STATES,
        ),
        deliveryStatement(db, { realm: auth.realm, nick: auth.nick, task_id: task.id, client_id: body.answer_id, at }),
        ...(files.length ? [persistAnswerFilesStatement(db, { realm: auth.realm, task_id: task.id, nick: auth.nick, at, files })] : []),
      ]
      let changed: number
      try {
        changed = (await runBatch(db, statements))[0].meta.changes
      } catch (err) {
        // The same answer id recorded by a delivery racing this one (UNIQUE): nothing of this one was written.
        if (String(err).includes('UNIQUE')) throw refused(409, 'answer_already_registered', 'answer_id', body.answer_id)
        throw err
      }
      if (!changed) throw await writeRefusal(c, auth, body.answer_id)
      return c.json(ownAnswer((await studentAnswer(db, auth.realm, task.id, auth.nick))!, task), 201)
    }),
  )
  /**
   * POST /tms/answer-student/{taskId}/file (multipart: `data`, `question_id`): the student's own upload for an answer
   * (issue 17) — students hold no `mas_file_upload`; this is their path. Only while they may answer the task, only a
   * kind the question takes (a media question's `accept`, photos of an essay's pages when the model transcribes
   * essays; another is `file_kind`), with the upload rules of `POST /mas/file` (type, size per kind, content,
   * dimensions: an essay page at least ESSAY_PAGE_MIN_PX each side). Temporary until an answer holding it is saved.
   */
  .post(
    '/:taskId/file',
    guarded({}, async (c, auth) => {
      const form = parse(FileForm, await multipartBody(c))
      const { content, q } = await answering(c, auth, form.question_id)
      const kinds = uploadKinds(q, content)
      if (!kinds.length) throw refused(422, 'file_kind', 'question_id', q.type)
      const page = q.type === 'essay' ? ESSAY_PAGE_MIN_PX : undefined
      const realm = await getRealmRow(c.env.DB, auth.realm)
      const row = await storeUpload(c, auth, form.data, { kinds, min_width: page, min_height: page })
      return c.json(uploadedFile(row, realmConfig(realm!, origin(c), c.get('hostRealm') === null).files_base_url), 201)
    }),
  )
  /**
   * DELETE /tms/answer-student/{taskId}/file/{fileId}: removes the student's own temporary upload (the R2 object and
   * its row). Another user's, another realm's, an unknown or expired file is `file_not_found`; a file kept with a
   * saved answer is `file_in_answer` (409: it leaves the answer when the student saves it without the file).
   */
  .delete(
    '/:taskId/file/:fileId',
    guarded({}, async (c, auth) => {
      const { file_id: id } = parse(FilePath, { file_id: pathParam(c, 'fileId') })
      await studentTask(c, auth)
      const [row] = await liveFilesByIds(c.env.DB, auth.realm, [id])
      if (!row || row.uploaded_by !== auth.nick) throw refused(404, 'file_not_found', 'file_id', id)
      if (row.persist) throw refused(409, 'file_in_answer', 'file_id', id)
      const [result] = await runBatch(c.env.DB, [
        deleteTemporaryFileStatement(c.env.DB, auth.realm, id, auth.nick),
        auditStatement(
          c.env.DB,
          {
            realm: auth.realm,
            actor: auth.nick,
            action: 'delete',
            entity: 'file',
            entityId: id,
            before: { name: row.name, size: row.size, kind: row.kind },
            requestId: c.get('requestId'),
          },
          { afterChange: true },
        ),
      ])
      // Saved with an answer between the read and the delete: kept.
      if (!result.meta.changes) throw refused(409, 'file_in_answer', 'file_id', id)
      await c.env.FILES.delete(row.key)
      return c.body(null, 204)
    }),
  )
  /**
   * POST /tms/answer-student/{taskId}/transcribe: the text of an essay's photographed pages (the student's own image
   * uploads, in page order) through the realm's vision provider, metered against its monthly AI cap (issue 17). Only
   * for an essay of a model that transcribes essays (`transcription_not_allowed`); at least one page
   * (`essay_image_required`); no provider answers 409 `ai_not_configured` (the device transcribes then); nothing read
   * is `no_text_detected`, a provider failure `transcription_failed`. The text is the student's to edit: nothing is saved.
   */
  .post(
    '/:taskId/transcribe',
    guardedJson({}, TranscribeInput, async (c, auth, body) => {
      const { content, q } = await answering(c, auth, body.question_id)
      if (q.type !== 'essay' || !content.essay_transcription) throw refused(422, 'transcription_not_allowed', 'question_id', q.type)
      if (!body.files.length) throw refused(422, 'essay_image_required', 'files')
      const ids = [...new Set(body.files.map(fileIdOf).filter((id): id is string => id !== null))]
      const byId = new Map((await liveFilesByIds(c.env.DB, auth.realm, ids)).map((r) => [r.id, r]))
      const rows = body.files.map((ref) => byId.get(fileIdOf(ref) ?? ''))
      const problems = body.files.flatMap((ref, i) => {
        const cause = answerFileProblem(q, ref, rows[i], auth.nick)
        return cause ? [{ field: 'files', cause, value: ref, message: `answer.error.${cause}` }] : []
      })
      if (problems.length) throw new ApiError(422, problems)
      const pages = await Promise.all(
        rows.map(async (row) => {
          const object = await c.env.FILES.get(row!.key)
          if (!object) throw refused(422, 'file_not_found', 'files', row!.id)
          return { bytes: new Uint8Array(await object.arrayBuffer()), type: row!.content_type }
        }),
      )
      let text: string
      try {
        text = await transcribePages(c.env, await settingsOf(c.env, auth.realm), pages, q.options.language)
      } catch (err) {
        if (err instanceof AiError && (err.code === 'ai_cap_reached' || err.code === 'ai_not_configured')) throw aiApiError(err)
        if (err instanceof AiError) throw apiError(502, 'transcription_failed', 'answer.error.transcription_failed', 'files', err.code)
        throw err
      }
      if (!text.trim()) throw refused(422, 'no_text_detected', 'files')
      return c.json({ text, engine: 'vision' as const })
    }),
  )
  /**
   * POST /tms/answer-student/{taskId}/check: the "Online Check" of an essay's text (seed 001 §2, §8): the realm's
   * LanguageTool-compatible server when it has one, otherwise the local checker (dictionary spelling and the device's
   * rules). Refused after the deadline, once the answer is delivered, and past the realm's checks per essay.
   */
  .post(
    '/:taskId/check',
    guardedJson({}, CheckInput, async (c, auth, body) => {
      const { task, content } = await studentTask(c, auth)
      const db = c.env.DB
      const question = content.questions.find((q) => q.id === body.question_id)
      if (!question) throw refused(422, 'unknown_question', 'question_id', body.question_id)
      if (question.type !== 'essay') throw refused(422, 'not_checkable', 'question_id', body.question_id)
      if (task.status === 'expired' || Date.parse(task.expire_at) <= Date.now()) throw refused(422, 'check_after_deadline', 'task_id', task.expire_at)
      const [existing, settings] = await Promise.all([studentAnswer(db, auth.realm, task.id, auth.nick), aiSettingsRow(db, auth.realm)])
      if (existing && !EDITABLE_STATES.includes(existing.status)) throw refused(409, 'already_submitted')
      const limit = Number(settings.essay_check_limit ?? ESSAY_CHECK_LIMIT)
      const key = { realm: auth.realm, task: task.id, nick: auth.nick, question: body.question_id }
      const used = await reserveCheck(db, key, limit, nowIso())
      if (used === null) throw refused(429, 'check_limit_reached', 'question_id', limit)
      const language = String((question.options as { language?: string }).language || 'pt-BR')
      const server = String(settings.languagetool_url ?? '')
      let marks: CheckMark[]
      try {
        marks = server
          ? await languageToolCheck(
              { url: server, username: String(settings.languagetool_username ?? ''), apiKey: String(settings.languagetool_api_key ?? '') },
              body.text,
              language,
            )
          : await localCheck(body.text, language)
      } catch (err) {
        await releaseCheck(db, key)
        if (err instanceof CheckerFailed) throw refused(502, 'check_failed', 'text')
        throw err
      }
      if (tooManyErrors(body.text, marks.length)) throw refused(422, 'too_many_errors', 'text', marks.length)
      return c.json({ engine: server ? 'languagetool' : 'local', language, marks, checks_used: used, checks_limit: limit })
    }),
  )
  /** GET /tms/answer-student/{taskId}/answer: my answer to the task, with its correction when it may be shown. */
  .get(
    '/:taskId/answer',
    guarded({}, (c, auth) => answerView(c, auth)),
  )
  /** GET /tms/answer-student/{taskId}/answer/{answerId}: the same, for the visualize screens (404 unless it is my answer). */
  .get(
    '/:taskId/answer/:answerId',
    guarded({}, (c, auth) => answerView(c, auth, parse(AnswerPath, { answer_id: pathParam(c, 'answerId') }).answer_id)),
  )
  /** POST /tms/answer-student/{taskId}/opinion: my opinion on the AI comment of my corrected answer; once sent, final. */
  .post(
    '/:taskId/opinion',
    guardedJson({}, OpinionInput, async (c, auth, body) => {
      const taskId = parse(Id, pathParam(c, 'taskId'))
      const db = c.env.DB
      const [task, answer] = await Promise.all([getTask(db, auth.realm, taskId), studentAnswer(db, auth.realm, taskId, auth.nick)])
      if (!task || !answer) throw apiError(404, 'not_found', 'answer.error.answer_not_found', 'task_id', taskId)
      if (answer.opinion !== null) throw refused(409, 'opinion_already_sent', 'opinion', answer.opinion)
      // Before the display-answer date the student cannot see the AI comment, so there is nothing to give an opinion on.
      if (!correctionShown(answer.status, task)) throw refused(409, 'opinion_not_open', 'opinion')
      const step = transition(answer.status as AnswerState, 'send_opinion', { aiComment: answer.ai_comment.trim() !== '' })
      if (!step.ok) throw refused(409, step.cause, 'opinion')
      const [result] = await runBatch(db, [
        opinionStatement(db, auth.realm, answer.id, { opinion: body.opinion, comment: body.comment, at: nowIso(), status: step.to }),
      ])
      if (!result.meta.changes) throw refused(409, 'opinion_already_sent', 'opinion')
      return c.json(ownAnswer((await studentAnswer(db, auth.realm, taskId, auth.nick))!, task))
    }),
  )
