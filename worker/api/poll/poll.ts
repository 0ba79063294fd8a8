import { Hono } from 'hono'
import { PollInput, PollQuestionInput, pollEntity, type Poll, type QuestionState } from '#shared/schemas/quiz'
import { auditStatement } from '../../db/audit'
import { runBatch } from '../../db/batch'
import { findChannel } from '../../db/channels'
import {
  activePollOfChannel,
  channelNameColumn,
  clonePollStatements,
  deleteQuestionStatement,
  findLive,
  insertPollQuestionsStatement,
  pollQuestionStatistics,
  pollQuestions,
  questionDuration,
  questionState,
  questionStateStatement,
  statusStatement,
  updatePollQuestionStatement,
} from '../../db/quiz'
import type { Auth } from '../../db/sessions'
import { born, crud, stamp } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { newId, nowIso } from '../../lib/tms'
import { type AppEnv, type Ctx, pathParam } from '../context'

/**
 * /poll: polls (seed 002 §3 "Poll", §4, §5, §8; issue 14) on the entity machinery, their questions and lifecycle,
 * as the quiz's. Only one active poll per channel (seed §5): a start beside another active poll of the channel is
 * refused with the seed's message (409 `channel_conflict`), and a partial unique index keeps it true under races.
 */
const CONTROL = { all: ['poll_poll_control'] }
const READ = { any: ['poll_poll_get', 'poll_poll_control'] }
const EDIT = { all: ['poll_poll_edit'] }
const CONFLICT = 'poll.error.channel_conflict'

async function requirePoll(c: Ctx, auth: Auth) {
  const id = pathParam(c, 'id')
  const found = await findLive(c.env.DB, 'poll', auth.realm, id)
  if (!found) throw apiError(404, 'not_found', 'poll.error.not_found', 'id', id)
  return found
}

async function checkChannel(c: Ctx, auth: Auth, channelId: string) {
  if (!(await findChannel(c.env.DB, auth.realm, channelId))) throw apiError(422, 'not_found', 'validation.quiz.unknown_channel', 'channel_id', channelId)
}

const audit = (c: Ctx, auth: Auth, id: string, action: string, before: Record<string, unknown> | null, after: Record<string, unknown> | null) =>
  auditStatement(c.env.DB, { realm: auth.realm, actor: auth.nick, action, entity: 'poll', entityId: id, before, after, requestId: c.get('requestId') })

const pollCrud = crud(pollEntity, {
  computed: { channel_name: channelNameColumn('poll') },
  permissions: {
    list: 'poll_poll_list',
    get: ['poll_poll_get', 'poll_poll_edit', 'poll_poll_control'],
    create: 'poll_poll_create',
    edit: 'poll_poll_edit',
    delete: 'poll_poll_delete',
  },
  create: PollInput,
  update: PollInput,
  beforeCreate: async (c, auth, body) => {
    await checkChannel(c, auth, body.channel_id)
    return { ...body, status: 'draft', ...born(auth) }
  },
  beforeUpdate: async (c, auth, body, existing: Poll) => {
    if (existing.status !== 'draft') throw apiError(409, 'not_editable', 'poll.error.not_editable', 'status', existing.status)
    await checkChannel(c, auth, body.channel_id)
    return { ...body, ...stamp(auth) }
  },
  beforeDelete: (_c, _auth, existing) => {
    if (existing.status === 'active') throw apiError(409, 'active', 'poll.error.delete_active', 'status', existing.status)
  },
})

async function movePollQuestion(c: Ctx, auth: Auth, from: QuestionState[], to: QuestionState, message: string) {
  const db = c.env.DB
  const poll = await requirePoll(c, auth)
  const qid = pathParam(c, 'qid')
  const q = await questionState(db, 'poll', auth.realm, poll.id, qid)
  if (!q) throw apiError(404, 'not_found', 'poll.error.question_not_found', 'qid', qid)
  if (poll.status !== 'active') throw apiError(409, 'not_active', message, 'status', poll.status)
  if (!from.includes(q.state)) throw apiError(409, 'state', message, 'state', q.state)
  const at = new Date()
  let open: { published_at: string; deadline: string } | undefined
  if (to === 'published') {
    const duration = await questionDuration(db, 'poll', auth.realm, poll.id)
    open = { published_at: at.toISOString(), deadline: new Date(at.getTime() + duration * 1000).toISOString() }
  }
  try {
    const [r] = await runBatch(db, [
      questionStateStatement(db, 'poll', auth.realm, poll.id, qid, from, to, open),
      audit(c, auth, poll.id, `question_${to}`, { question: qid, state: q.state }, { question: qid, state: to }),
    ])
    if (!r.meta.changes) throw apiError(409, 'state', message, 'state', q.state)
  } catch (err) {
    if (String(err).includes('UNIQUE')) throw apiError(409, 'another_published', message, 'qid', qid)
    throw err
  }
  return c.json({ id: qid, state: to, ...(open ?? {}) })
}

export const poll = new Hono<AppEnv>()
  /** POST /poll/{id}/start: publishes a draft poll with a question, unless its channel has an active poll. */
  .post(
    '/:id/start',
    guarded(CONTROL, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      if (p.status !== 'draft') throw apiError(409, 'state', 'poll.error.publish', 'status', p.status)
      if (p.question_count < 1) throw apiError(422, 'no_questions', 'quiz.error.publish_no_questions', 'questions', 0)
      const other = await activePollOfChannel(db, auth.realm, p.channel_id, p.id)
      if (other) throw apiError(409, 'channel_conflict', CONFLICT, 'channel_id', other.id)
      try {
        const [r] = await runBatch(db, [
          statusStatement(db, 'poll', auth.realm, p.id, ['draft'], 'active', nowIso(), auth.nick),
          audit(c, auth, p.id, 'start', { status: 'draft' }, { status: 'active' }),
        ])
        if (!r.meta.changes) throw apiError(409, 'state', 'poll.error.publish', 'status', p.status)
      } catch (err) {
        if (String(err).includes('UNIQUE')) throw apiError(409, 'channel_conflict', CONFLICT, 'channel_id', p.channel_id)
        throw err
      }
      return c.json({ id: p.id, status: 'active' as const })
    }),
  )
  /** POST /poll/{id}/cancel: a draft or active poll is canceled. */
  .post(
    '/:id/cancel',
    guarded(CONTROL, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      const [r] = await runBatch(db, [
        statusStatement(db, 'poll', auth.realm, p.id, ['draft', 'active'], 'canceled', nowIso(), auth.nick),
        audit(c, auth, p.id, 'cancel', { status: p.status }, { status: 'canceled' }),
      ])
      if (!r.meta.changes) throw apiError(409, 'state', 'poll.error.cancel', 'status', p.status)
      return c.json({ id: p.id, status: 'canceled' as const })
    }),
  )
  /** POST /poll/{id}/finish: an active poll is finished. */
  .post(
    '/:id/finish',
    guarded(CONTROL, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      if (p.status === 'finished') return c.json({ id: p.id, status: 'finished' as const })
      const [r] = await runBatch(db, [
        statusStatement(db, 'poll', auth.realm, p.id, ['active'], 'finished', nowIso(), auth.nick),
        audit(c, auth, p.id, 'finish', { status: p.status }, { status: 'finished' }),
      ])
      if (!r.meta.changes) throw apiError(409, 'state', 'poll.error.finish', 'status', p.status)
      return c.json({ id: p.id, status: 'finished' as const })
    }),
  )
  /** POST /poll/{id}/clone: a new draft with the same settings and questions. */
  .post(
    '/:id/clone',
    guarded({ all: ['poll_poll_create'] }, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      const id = newId()
      const name = `${p.name} (2)`.slice(0, 120)
      try {
        await runBatch(db, [
          ...clonePollStatements(db, auth.realm, p.id, id, name, nowIso(), auth.nick),
          audit(c, auth, id, 'clone', { from: p.id }, { id, name }),
        ])
      } catch (err) {
        throw apiError(500, 'clone', 'poll.error.clone', 'id', String(err).slice(0, 200))
      }
      return c.json({ id, name, status: 'draft' as const }, 201)
    }),
  )
  /** GET /poll/{id}/question: the poll's questions in order. */
  .get(
    '/:id/question',
    guarded(READ, async (c, auth) => {
      const p = await requirePoll(c, auth)
      return c.json({ items: await pollQuestions(c.env.DB, auth.realm, p.id) })
    }),
  )
  /** POST /poll/{id}/question: adds a question to a draft or active poll. */
  .post(
    '/:id/question',
    guardedJson(EDIT, PollQuestionInput, async (c, auth, body) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      if (p.status !== 'draft' && p.status !== 'active') throw apiError(409, 'not_editable', 'poll.error.not_editable', 'status', p.status)
      if (p.question_count >= 200) throw apiError(422, 'too_many', 'validation.max_items', 'questions', 200)
      const id = newId()
      await runBatch(db, [insertPollQuestionsStatement(db, auth.realm, p.id, [{ ...body, id }]), audit(c, auth, p.id, 'add_question', null, { question: id })])
      return c.json(
        (await pollQuestions(db, auth.realm, p.id)).find((q) => q.id === id)!,
        201,
      )
    }),
  )
  /** PUT /poll/{id}/question/{qid}: changes a pending question. */
  .put(
    '/:id/question/:qid',
    guardedJson(EDIT, PollQuestionInput, async (c, auth, body) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      const qid = pathParam(c, 'qid')
      const q = await questionState(db, 'poll', auth.realm, p.id, qid)
      if (!q) throw apiError(404, 'not_found', 'poll.error.question_not_found', 'qid', qid)
      if (q.state !== 'pending' || (p.status !== 'draft' && p.status !== 'active'))
        throw apiError(409, 'not_editable', 'quiz.error.question_not_editable', 'state', q.state)
      await runBatch(db, [
        updatePollQuestionStatement(db, auth.realm, p.id, qid, body),
        audit(c, auth, p.id, 'change_question', { question: qid }, { question: qid }),
      ])
      return c.json((await pollQuestions(db, auth.realm, p.id)).find((x) => x.id === qid)!)
    }),
  )
  /** DELETE /poll/{id}/question/{qid}: removes a question that is not published nor showing its result. */
  .delete(
    '/:id/question/:qid',
    guarded(EDIT, async (c, auth) => {
      const db = c.env.DB
      const p = await requirePoll(c, auth)
      const qid = pathParam(c, 'qid')
      const q = await questionState(db, 'poll', auth.realm, p.id, qid)
      if (!q) throw apiError(404, 'not_found', 'poll.error.question_not_found', 'qid', qid)
      const [r] = await runBatch(db, [
        deleteQuestionStatement(db, 'poll', auth.realm, p.id, qid),
        audit(c, auth, p.id, 'delete_question', { question: qid }, null),
      ])
      if (!r.meta.changes) throw apiError(409, 'state', 'quiz.error.question_delete', 'state', q.state)
      return c.body(null, 204)
    }),
  )
  .post(
    '/:id/question/:qid/publish',
    guarded(CONTROL, (c, auth) => movePollQuestion(c, auth, ['pending'], 'published', 'quiz.error.question_publish')),
  )
  .post(
    '/:id/question/:qid/result',
    guarded(CONTROL, (c, auth) => movePollQuestion(c, auth, ['published'], 'result', 'quiz.error.question_result')),
  )
  .post(
    '/:id/question/:qid/finish',
    guarded(CONTROL, (c, auth) => movePollQuestion(c, auth, ['published', 'result'], 'finished', 'quiz.error.question_finish')),
  )
  .post(
    '/:id/question/:qid/hide',
    guarded(CONTROL, (c, auth) => movePollQuestion(c, auth, ['pending', 'finished'], 'hidden', 'quiz.error.question_hide')),
  )
  /** GET /poll/{id}/statistics: per question, how many voted and the votes per option (or rating). */
  .get(
    '/:id/statistics',
    guarded(READ, async (c, auth) => {
      const p = await requirePoll(c, auth)
      return c.json({ questions: await pollQuestionStatistics(c.env.DB, auth.realm, p.id) })
    }),
  )
  .route('/', pollCrud)
