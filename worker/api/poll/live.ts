import { PartyVotes } from '#shared/schemas/quiz'
import { runBatch } from '../../db/batch'
import { pollLiveSettings, pollQuestions, pollResultStatements } from '../../db/quiz'
import { apiError } from '../../lib/errors'
import { guardedJson } from '../../lib/guard'
import { pathParam } from '../context'
import { partyCaller } from '../live-party'
import { liveRunRoutes, requireLive } from '../quiz/live'

/**
 * /poll/live: a poll run by the quiz party in poll mode (room `poll-<id>`, issue 14) — tickets as the quiz's
 * (`moderator` with poll_poll_control, else `player` as the channel admits them; guests on public channels), and the
 * party's own calls with its service ticket (party `poll-api`, room = the poll id): the poll's state, a question's
 * publish (with the party's deadline) and result, and a closed question's votes (one per player and question:
 * `INSERT OR IGNORE`, so a retried write counts nothing twice).
 */
const PARTY_API = 'poll-api'

const requirePoll = (db: D1Database, realm: string, id: string) => requireLive(db, 'poll', realm, id)

/** GET /poll/live/{id}/state (party): the poll's settings and its questions with their state. */
async function pollState(db: D1Database, realm: string, pollId: string) {
  const [questions, settings] = await Promise.all([pollQuestions(db, realm, pollId), pollLiveSettings(db, realm, pollId)])
  return {
    type: settings?.type ?? 'open',
    question_duration: settings?.question_duration ?? 0,
    requires: settings?.requires ?? {},
    questions: questions.map((q) => ({ id: q.id, position: q.position, text: q.text, type: q.type, options: q.options, params: q.params, state: q.state })),
  }
}

/** POST /poll/live/{id}/ticket and …/guest, the party's …/state, …/question/{qid}/publish and …/result: as the quiz's. */
export const live = liveRunRoutes('poll', 'poll_poll_control', pollState)
  /** POST /poll/live/{id}/question/{qid}/votes (party): a closed question's votes (each player's first counts), in pages; the `final` one finishes the question. */
  .post(
    '/:id/question/:qid/votes',
    guardedJson('public', PartyVotes, async (c, _auth, body) => {
      const { realm, id: pollId } = await partyCaller(c, PARTY_API)
      const db = c.env.DB
      const qid = pathParam(c, 'qid')
      await requirePoll(db, realm, pollId)
      const questions = await pollQuestions(db, realm, pollId)
      if (!questions.some((q) => q.id === qid)) throw apiError(404, 'not_found', 'poll.error.question_not_found', 'qid', qid)
      await runBatch(db, pollResultStatements(db, realm, pollId, qid, body.votes, body.final))
      return c.json({ id: qid, votes: body.votes.length })
    }),
  )
