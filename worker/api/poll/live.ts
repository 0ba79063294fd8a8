import { Hono } from 'hono'
import { PartyPublish, PartyVotes, QuizGuestJoin } from '#shared/schemas/quiz'
import { runBatch } from '../../db/batch'
import { findLive, pollLiveSettings, pollQuestions, pollResultStatements, questionStateStatement } from '../../db/quiz'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { type AppEnv, pathParam } from '../context'
import { liveGuestTicket, liveTicket, partyCaller } from '../quiz/live'

/**
 * /poll/live: a poll run by the quiz party in poll mode (room `poll-<id>`, issue 14) — tickets as the quiz's
 * (`moderator` with poll_poll_control, else `player` as the channel admits them; guests on public channels), and the
 * party's own calls with its service ticket (party `poll-api`, room = the poll id): the poll's state, a question's
 * publish (with the party's deadline) and result, and a closed question's votes (one per player and question:
 * `INSERT OR IGNORE`, so a retried write counts nothing twice).
 */
const PARTY_API = 'poll-api'

async function requirePoll(db: D1Database, realm: string, id: string) {
  const poll = await findLive(db, 'poll', realm, id)
  if (!poll) throw apiError(404, 'not_found', 'poll.error.not_found', 'id', id)
  return poll
}

export const live = new Hono<AppEnv>()
  /** POST /poll/live/{id}/ticket: a 60 s ticket to the poll's room. */
  .post(
    '/:id/ticket',
    guarded({}, async (c, auth) => {
      const poll = await requirePoll(c.env.DB, auth.realm, pathParam(c, 'id'))
      return c.json(await liveTicket(c, auth, 'poll', poll, auth.permissions.has('poll_poll_control')))
    }),
  )
  /** POST /poll/live/{id}/guest: a guest's player ticket with a nickname, when the poll's channel is public. */
  .post(
    '/:id/guest',
    guardedJson('public', QuizGuestJoin, async (c, _auth, body) => c.json(await liveGuestTicket(c, 'poll', body))),
  )
  /** GET /poll/live/{id}/state (party): the poll's settings and its questions with their state. */
  .get(
    '/:id/state',
    guarded('public', async (c) => {
      const { realm, quizId: pollId } = await partyCaller(c, PARTY_API)
      const db = c.env.DB
      const head = await requirePoll(db, realm, pollId)
      const [questions, settings] = await Promise.all([pollQuestions(db, realm, pollId), pollLiveSettings(db, realm, pollId)])
      return c.json({
        id: head.id,
        name: head.name,
        status: head.status,
        type: settings?.type ?? 'open',
        question_duration: settings?.question_duration ?? 0,
        requires: settings?.requires ?? {},
        questions: questions.map((q) => ({ id: q.id, position: q.position, text: q.text, type: q.type, options: q.options, params: q.params, state: q.state })),
      })
    }),
  )
  /** POST /poll/live/{id}/question/{qid}/publish (party): the question opens, with the party's publish time and deadline. */
  .post(
    '/:id/question/:qid/publish',
    guardedJson('public', PartyPublish, async (c, _auth, body) => {
      const { realm, quizId: pollId } = await partyCaller(c, PARTY_API)
      const qid = pathParam(c, 'qid')
      try {
        const [r] = await runBatch(c.env.DB, [questionStateStatement(c.env.DB, 'poll', realm, pollId, qid, ['pending'], 'published', body)])
        if (!r.meta.changes) throw apiError(409, 'state', 'quiz.error.question_publish', 'qid', qid)
      } catch (err) {
        if (String(err).includes('UNIQUE')) throw apiError(409, 'another_published', 'quiz.error.question_publish', 'qid', qid)
        throw err
      }
      return c.json({ id: qid, state: 'published' as const })
    }),
  )
  /** POST /poll/live/{id}/question/{qid}/result (party): the question shows its result. */
  .post(
    '/:id/question/:qid/result',
    guarded('public', async (c) => {
      const { realm, quizId: pollId } = await partyCaller(c, PARTY_API)
      const qid = pathParam(c, 'qid')
      const [r] = await runBatch(c.env.DB, [questionStateStatement(c.env.DB, 'poll', realm, pollId, qid, ['published'], 'result')])
      return c.json({ id: qid, state: 'result' as const, changed: (r.meta.changes ?? 0) > 0 })
    }),
  )
  /** POST /poll/live/{id}/question/{qid}/votes (party): a closed question's votes (each player's first counts), in pages; the `final` one finishes the question. */
  .post(
    '/:id/question/:qid/votes',
    guardedJson('public', PartyVotes, async (c, _auth, body) => {
      const { realm, quizId: pollId } = await partyCaller(c, PARTY_API)
      const db = c.env.DB
      const qid = pathParam(c, 'qid')
      await requirePoll(db, realm, pollId)
      const questions = await pollQuestions(db, realm, pollId)
      if (!questions.some((q) => q.id === qid)) throw apiError(404, 'not_found', 'poll.error.question_not_found', 'qid', qid)
      await runBatch(db, pollResultStatements(db, realm, pollId, qid, body.votes, body.final))
      return c.json({ id: qid, votes: body.votes.length })
    }),
  )
