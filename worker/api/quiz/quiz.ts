import { Hono } from 'hono'
import {
  QuizBankImportInput,
  QuizImportInput,
  QuizInput,
  QuizQuestionInput,
  quizEntity,
  type Quiz,
  type QuestionState,
  type QuizQuestionInput as QuestionInput,
} from '#shared/schemas/quiz'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { findChannel } from '../../db/channels'
import {
  type AccountRef,
  accountId,
  ledgerEnabled,
  newBillingKey,
  postingStatements,
  realmWallet,
  runMovement,
  insufficientCredits,
  userWallet,
} from '../../db/ledger'
import {
  bankChoiceQuestions,
  channelNameColumn,
  cloneQuizStatements,
  deleteQuestionStatement,
  findLive,
  insertQuizQuestionsStatement,
  payoutStatement,
  quizPayouts,
  quizQuestionStatistics,
  quizQuestions,
  questionDuration,
  questionState,
  questionStateStatement,
  rankedPlayers,
  quizRewardSettings,
  realmMaxPrize,
  statusStatement,
  updateQuizQuestionStatement,
  type Payout,
} from '../../db/quiz'
import type { Auth } from '../../db/sessions'
import { born, crud, stamp } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { bankToQuestions, parseQuestionImport, type SkippedBankItem } from '../../lib/quiz'
import { newId, nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, pathParam } from '../context'

/**
 * /quiz: quizzes (seed 002 §3 "Quiz", §4, §5, §8; issue 14) on the entity machinery, their questions, the lifecycle
 * (start = publish, cancel, finish with the rewards, clone; per question publish, show result, finish, hide,
 * delete), imports (CSV/JSON, the task question bank), winners and statistics. Rules:
 * - name, channel (a channel of the realm) and reward type required; answer time and extra-life time > 8 s;
 *   reward value and per player required (per player ≤ value); the realm's `quiz_max_prize` caps the value;
 * - a quiz's settings change only while it is a draft; questions are added while draft or active and changed only
 *   while pending; a published question (or one showing its result) cannot be deleted;
 * - a finish pays each winner once (ledger transaction per quiz and player, posted "once"), in one batch with the
 *   status change: a retried finish answers what was paid and pays nothing more.
 */
const CONTROL = { all: ['quiz_quiz_control'] }
const READ = { any: ['quiz_quiz_get', 'quiz_quiz_control'] }
const EDIT = { all: ['quiz_quiz_edit'] }

async function requireQuiz(c: Ctx, auth: Auth) {
  const id = pathParam(c, 'id')
  const found = await findLive(c.env.DB, 'quiz', auth.realm, id)
  if (!found) throw apiError(404, 'not_found', 'quiz.error.not_found', 'id', id)
  return found
}

async function checkQuizValues(c: Ctx, auth: Auth, body: QuizInput): Promise<void> {
  if (!(await findChannel(c.env.DB, auth.realm, body.channel_id)))
    throw apiError(422, 'not_found', 'validation.quiz.unknown_channel', 'channel_id', body.channel_id)
  const max = await realmMaxPrize(c.env.DB, auth.realm)
  if (max >= 0 && body.reward_value > max) throw apiError(422, 'max_prize', 'quiz.error.max_prize', 'reward_value', max)
}

const quizCrud = crud(quizEntity, {
  computed: { channel_name: channelNameColumn('quiz') },
  permissions: {
    list: 'quiz_quiz_list',
    get: ['quiz_quiz_get', 'quiz_quiz_edit', 'quiz_quiz_control'],
    create: 'quiz_quiz_create',
    edit: 'quiz_quiz_edit',
    delete: 'quiz_quiz_delete',
  },
  create: QuizInput,
  update: QuizInput,
  beforeCreate: async (c, auth, body) => {
    await checkQuizValues(c, auth, body)
    return { ...body, status: 'draft', ...born(auth) }
  },
  beforeUpdate: async (c, auth, body, existing: Omit<Quiz, 'channel_name'>) => {
    if (existing.status !== 'draft') throw apiError(409, 'not_editable', 'quiz.error.not_editable', 'status', existing.status)
    await checkQuizValues(c, auth, body)
    return { ...body, ...stamp(auth) }
  },
  beforeDelete: (_c, _auth, existing) => {
    if (existing.status === 'active') throw apiError(409, 'active', 'quiz.error.delete_active', 'status', existing.status)
  },
})

/** Adds questions to a draft or active quiz (at most MAX_QUESTIONS in all); answers them with their ids (and what a bank import skipped). */
async function addQuestions(c: Ctx, auth: Auth, questions: QuestionInput[], skipped: SkippedBankItem[] = []) {
  const quiz = await requireQuiz(c, auth)
  if (quiz.status !== 'draft' && quiz.status !== 'active') throw apiError(409, 'not_editable', 'quiz.error.not_editable', 'status', quiz.status)
  if (quiz.question_count + questions.length > 200) throw apiError(422, 'too_many', 'validation.max_items', 'questions', 200)
  const withIds = questions.map((q) => ({ ...q, id: newId() }))
  await runBatch(c.env.DB, [
    insertQuizQuestionsStatement(c.env.DB, auth.realm, quiz.id, withIds),
    audit(c, auth, quiz.id, 'add_questions', null, { count: withIds.length }),
  ])
  return c.json({ items: (await quizQuestions(c.env.DB, auth.realm, quiz.id)).filter((q) => withIds.some((w) => w.id === q.id)), skipped }, 201)
}

const audit = (c: Ctx, auth: Auth, id: string, action: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null) =>
  auditStatement(c.env.DB, { realm: auth.realm, actor: auth.nick, action, entity: 'quiz', entityId: id, before, after, requestId: c.get('requestId') })

/** A question's transition: from one of `from` to `to`, on an active quiz; refused with the seed's message otherwise. */
async function moveQuestion(c: Ctx, auth: Auth, from: QuestionState[], to: QuestionState, message: string) {
  const db = c.env.DB
  const quiz = await requireQuiz(c, auth)
  const qid = pathParam(c, 'qid')
  const q = await questionState(db, 'quiz', auth.realm, quiz.id, qid)
  if (!q) throw apiError(404, 'not_found', 'quiz.error.question_not_found', 'qid', qid)
  if (quiz.status !== 'active') throw apiError(409, 'not_active', message, 'status', quiz.status)
  if (!from.includes(q.state)) throw apiError(409, 'state', message, 'state', q.state)
  const at = new Date()
  let open: { published_at: string; deadline: string } | undefined
  if (to === 'published') {
    const duration = await questionDuration(db, 'quiz', auth.realm, quiz.id)
    open = { published_at: at.toISOString(), deadline: new Date(at.getTime() + duration * 1000).toISOString() }
  }
  try {
    const [r] = await runBatch(db, [
      questionStateStatement(db, 'quiz', auth.realm, quiz.id, qid, from, to, open),
      audit(c, auth, quiz.id, `question_${to}`, { question: qid, state: q.state }, { question: qid, state: to }),
    ])
    if (!r.meta.changes) throw apiError(409, 'state', message, 'state', q.state)
  } catch (err) {
    // The partial unique index: another question of the quiz is published or showing its result.
    if (String(err).includes('UNIQUE')) throw apiError(409, 'another_published', message, 'qid', qid)
    throw err
  }
  return c.json({ id: qid, state: to, ...(open ?? {}) })
}

/** What a finish pays: the winners in rank order (players still in, score > 0, signed-in users), within the prize. */
async function finishPlan(c: Ctx, auth: Auth, quizId: string) {
  const db = c.env.DB
  const row = await quizRewardSettings(db, auth.realm, quizId)
  if (!row) throw apiError(404, 'not_found', 'quiz.error.not_found', 'id', quizId)
  const ranked = await rankedPlayers(db, auth.realm, quizId)
  const winners = ranked.filter((p) => !p.eliminated && p.score > 0)
  const places = row.reward_per_player > 0 ? Math.floor(row.reward_value / row.reward_per_player) : 0
  const paid = winners.filter((p) => !p.guest).slice(0, places)
  const total = paid.length * row.reward_per_player
  return { row, winners, paid, total }
}

/** Finishes an active quiz and pays its winners, in one batch; a finished quiz answers what it paid. */
async function finish(c: Ctx, auth: Auth) {
  const db = c.env.DB
  const quiz = await requireQuiz(c, auth)
  if (quiz.status === 'finished')
    return c.json({ id: quiz.id, status: 'finished' as const, payouts: await quizPayouts(db, auth.realm, quiz.id), replayed: true })
  if (quiz.status !== 'active') throw apiError(409, 'state', 'quiz.error.finish', 'status', quiz.status)
  const { row, paid, total } = await finishPlan(c, auth, quiz.id)
  const max = await realmMaxPrize(db, auth.realm)
  if (total > row.reward_value || (max >= 0 && total > max))
    throw apiError(422, 'max_prize', 'quiz.error.max_prize', 'reward_value', { total, max: max >= 0 ? Math.min(max, row.reward_value) : row.reward_value })
  const at = nowIso()
  const statements: D1PreparedStatement[] = [statusStatement(db, 'quiz', auth.realm, quiz.id, ['active'], 'finished', at, auth.nick)]
  let payer: AccountRef = realmWallet(auth.realm)
  if (total > 0) {
    if (!(await ledgerEnabled(db, auth.realm))) throw apiError(422, 'ledger_disabled', 'quiz.error.ledger_disabled', 'reward_type', row.reward_type)
    if (row.reward_type === 'channel_owner') {
      const owner = (await findChannel(db, auth.realm, row.channel_id))?.owner
      if (!owner) throw apiError(422, 'no_owner', 'quiz.error.no_channel_owner', 'channel_id', row.channel_id)
      payer = userWallet(auth.realm, owner)
    }
    for (const p of paid) {
      // One transaction per quiz and player, its id derived from both: posted "once", a retry posts nothing.
      const id = `quiz_${quiz.id}_${p.nick}`
      const payout: Payout = { nick: p.nick, rank: p.rank, points: row.reward_per_player, transaction_id: id, paid_at: at }
      statements.push(
        ...postingStatements(
          db,
          {
            id,
            realm: auth.realm,
            type: 'transfer',
            actor: auth.nick,
            description: `quiz ${quiz.name}`,
            lines: [
              { account: payer, amount: -row.reward_per_player },
              { account: userWallet(auth.realm, p.nick), amount: row.reward_per_player },
            ],
            details: { quiz_id: quiz.id, rank: p.rank },
            idempotencyKey: id,
            billingKey: newBillingKey(),
            createdAt: at,
          },
          { once: true },
        ),
        payoutStatement(db, auth.realm, quiz.id, payout),
      )
    }
  }
  statements.push(
    audit(c, auth, quiz.id, 'finish', { status: 'active' }, { status: 'finished', paid: paid.map((p) => p.nick), total, payer: accountId(payer) }),
  )
  await runMovement(db, statements, () => insufficientCredits(db, payer, total, 'quiz.error.insufficient_credits'))
  return c.json({ id: quiz.id, status: 'finished' as const, payouts: await quizPayouts(db, auth.realm, quiz.id), replayed: false })
}

export const quiz = new Hono<AppEnv>()
  /** POST /quiz/{id}/start: publishes a draft quiz (it needs a question); it becomes active. */
  .post(
    '/:id/start',
    guarded(CONTROL, async (c, auth) => {
      const db = c.env.DB
      const q = await requireQuiz(c, auth)
      if (q.status !== 'draft') throw apiError(409, 'state', 'quiz.error.publish', 'status', q.status)
      if (q.question_count < 1) throw apiError(422, 'no_questions', 'quiz.error.publish_no_questions', 'questions', 0)
      const [r] = await runBatch(db, [
        statusStatement(db, 'quiz', auth.realm, q.id, ['draft'], 'active', nowIso(), auth.nick),
        audit(c, auth, q.id, 'start', { status: 'draft' }, { status: 'active' }),
      ])
      if (!r.meta.changes) throw apiError(409, 'state', 'quiz.error.publish', 'status', q.status)
      return c.json({ id: q.id, status: 'active' as const })
    }),
  )
  /** POST /quiz/{id}/cancel: a draft or active quiz is canceled (nothing is paid). */
  .post(
    '/:id/cancel',
    guarded(CONTROL, async (c, auth) => {
      const db = c.env.DB
      const q = await requireQuiz(c, auth)
      const [r] = await runBatch(db, [
        statusStatement(db, 'quiz', auth.realm, q.id, ['draft', 'active'], 'canceled', nowIso(), auth.nick),
        audit(c, auth, q.id, 'cancel', { status: q.status }, { status: 'canceled' }),
      ])
      if (!r.meta.changes) throw apiError(409, 'state', 'quiz.error.cancel', 'status', q.status)
      return c.json({ id: q.id, status: 'canceled' as const })
    }),
  )
  /** POST /quiz/{id}/finish: finishes an active quiz and pays its winners (a retry pays nothing more). */
  .post(
    '/:id/finish',
    guarded(CONTROL, (c, auth) => finish(c, auth)),
  )
  /** POST /quiz/{id}/clone: a new draft with the same settings and questions. */
  .post(
    '/:id/clone',
    guarded({ all: ['quiz_quiz_create'] }, async (c, auth) => {
      const db = c.env.DB
      const q = await requireQuiz(c, auth)
      const id = newId()
      const at = nowIso()
      const name = `${q.name} (2)`.slice(0, 120)
      try {
        await runBatch(db, [...cloneQuizStatements(db, auth.realm, q.id, id, name, at, auth.nick), audit(c, auth, id, 'clone', { from: q.id }, { id, name })])
      } catch (err) {
        throw apiError(500, 'clone', 'quiz.error.clone', 'id', String(err).slice(0, 200))
      }
      return c.json({ id, name, status: 'draft' as const }, 201)
    }),
  )
  /** GET /quiz/{id}/question: the quiz's questions in order, with their states. */
  .get(
    '/:id/question',
    guarded(READ, async (c, auth) => {
      const q = await requireQuiz(c, auth)
      return c.json({ items: await quizQuestions(c.env.DB, auth.realm, q.id) })
    }),
  )
  /** POST /quiz/{id}/question: adds a question. */
  .post(
    '/:id/question',
    guardedJson(EDIT, QuizQuestionInput, (c, auth, body) => addQuestions(c, auth, [body])),
  )
  /** POST /quiz/{id}/question/import: questions from a CSV or JSON file's text; every row's errors by line. */
  .post(
    '/:id/question/import',
    guardedJson(EDIT, QuizImportInput, (c, auth, body) => addQuestions(c, auth, parseQuestionImport(body.format, body.content))),
  )
  /**
   * POST /quiz/{id}/question/bank: questions from the task question bank (single choice, three options); the items
   * that do not fit are skipped and answered in `skipped` with their reason (422 when none fits).
   */
  .post(
    '/:id/question/bank',
    guardedJson(EDIT, QuizBankImportInput, async (c, auth, body) => {
      const { questions, skipped } = bankToQuestions(await bankChoiceQuestions(c.env.DB, auth.realm, body.ids), body.ids)
      return addQuestions(c, auth, questions, skipped)
    }),
  )
  /** PUT /quiz/{id}/question/{qid}: changes a pending question. */
  .put(
    '/:id/question/:qid',
    guardedJson(EDIT, QuizQuestionInput, async (c, auth, body) => {
      const db = c.env.DB
      const quiz = await requireQuiz(c, auth)
      const qid = pathParam(c, 'qid')
      const q = await questionState(db, 'quiz', auth.realm, quiz.id, qid)
      if (!q) throw apiError(404, 'not_found', 'quiz.error.question_not_found', 'qid', qid)
      if (q.state !== 'pending' || (quiz.status !== 'draft' && quiz.status !== 'active'))
        throw apiError(409, 'not_editable', 'quiz.error.question_not_editable', 'state', q.state)
      await runBatch(db, [
        updateQuizQuestionStatement(db, auth.realm, quiz.id, qid, body),
        audit(c, auth, quiz.id, 'change_question', { question: qid }, { question: qid, ...body }),
      ])
      return c.json((await quizQuestions(db, auth.realm, quiz.id)).find((x) => x.id === qid)!)
    }),
  )
  /** DELETE /quiz/{id}/question/{qid}: removes a question that is not published nor showing its result. */
  .delete(
    '/:id/question/:qid',
    guarded(EDIT, async (c, auth) => {
      const db = c.env.DB
      const quiz = await requireQuiz(c, auth)
      const qid = pathParam(c, 'qid')
      const q = await questionState(db, 'quiz', auth.realm, quiz.id, qid)
      if (!q) throw apiError(404, 'not_found', 'quiz.error.question_not_found', 'qid', qid)
      const [r] = await runBatch(db, [
        deleteQuestionStatement(db, 'quiz', auth.realm, quiz.id, qid),
        audit(c, auth, quiz.id, 'delete_question', { question: qid }, null),
      ])
      if (!r.meta.changes) throw apiError(409, 'state', 'quiz.error.question_delete', 'state', q.state)
      return c.body(null, 204)
    }),
  )
  /** POST /quiz/{id}/question/{qid}/publish: opens a pending question for answers until now + the question time. */
  .post(
    '/:id/question/:qid/publish',
    guarded(CONTROL, (c, auth) => moveQuestion(c, auth, ['pending'], 'published', 'quiz.error.question_publish')),
  )
  /** POST /quiz/{id}/question/{qid}/result: shows a published question's result. */
  .post(
    '/:id/question/:qid/result',
    guarded(CONTROL, (c, auth) => moveQuestion(c, auth, ['published'], 'result', 'quiz.error.question_result')),
  )
  /** POST /quiz/{id}/question/{qid}/finish: closes a published question (or one showing its result). */
  .post(
    '/:id/question/:qid/finish',
    guarded(CONTROL, (c, auth) => moveQuestion(c, auth, ['published', 'result'], 'finished', 'quiz.error.question_finish')),
  )
  /** POST /quiz/{id}/question/{qid}/hide: hides a question that is not open. */
  .post(
    '/:id/question/:qid/hide',
    guarded(CONTROL, (c, auth) => moveQuestion(c, auth, ['pending', 'finished'], 'hidden', 'quiz.error.question_hide')),
  )
  /** GET /quiz/{id}/winners: the ranked players still in with a score, and what the finish paid; 404 when none. */
  .get(
    '/:id/winners',
    guarded(READ, async (c, auth) => {
      const q = await requireQuiz(c, auth)
      const { winners } = await finishPlan(c, auth, q.id)
      if (!winners.length) throw apiError(404, 'not_found', 'quiz.error.winners_not_found', 'id', q.id)
      return c.json({ items: winners, payouts: await quizPayouts(c.env.DB, auth.realm, q.id) })
    }),
  )
  /** GET /quiz/{id}/statistics: per question (distribution, correct rate, mean time) and per player (score, lives). */
  .get(
    '/:id/statistics',
    guarded(READ, async (c, auth) => {
      const q = await requireQuiz(c, auth)
      const [questions, players] = await Promise.all([quizQuestionStatistics(c.env.DB, auth.realm, q.id), rankedPlayers(c.env.DB, auth.realm, q.id)])
      return c.json({ questions, players, lives_used: players.reduce((s, p) => s + p.lives_used, 0) })
    }),
  )
  .route('/', quizCrud)
