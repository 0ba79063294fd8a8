import { Hono } from 'hono'
import { PartyPublish, PartyResults, QuizGuestJoin, type QuizOption } from '#shared/schemas/quiz'
import { signTicket, verifyTicket } from '../../../party/ticket'
import { runBatch } from '../../db/batch'
import { liveChannelState } from '../../db/channel-live'
import {
  findLive,
  type LiveHead,
  type LiveKind,
  playerStatements,
  questionResultStatements,
  questionStateStatement,
  quizLiveSettings,
  quizQuestions,
} from '../../db/quiz'
import { checkWordFilter } from '../../db/word-filter'
import { randomToken } from '../../lib/crypto'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { answerScore } from '../../lib/quiz-score'
import type { Auth } from '../../db/sessions'
import { type AppEnv, type Ctx, pathParam, requestRealm } from '../context'
import { modeOn, partyCaller, partySecret as secret } from '../live-party'

/**
 * /quiz/live: the quiz party's side of the realm API (issue 14), as the channel party's (README "Live channel
 * decisions"): tickets for the console (moderators: quiz_quiz_control) and players (signed-in users the quiz's
 * channel admits, or guests with a nickname on a public channel), and the party's own calls with its service ticket
 * (party `quiz-api`, room = the quiz id, signed with PARTY_SECRET): the quiz's state, a question's publish (with the
 * party's deadline) and result, and the results of each closed question (answers counted once per player and
 * question, every standing replaced), which D1 then answers for the statistics, winners and rewards.
 */
export const QUIZ_PARTY = 'quiz'
const PARTY_API = 'quiz-api'
/** A guest's proof of who they were in a quiz's room, so a dropped guest rejoins as the same player (6 h). */
const GUEST_RESUME = 'quiz-guest'
const RESUME_TTL_SECONDS = 6 * 3600

/** A quiz or poll of the realm, or 404 `<kind>.error.not_found`. */
export async function requireLive(db: D1Database, kind: LiveKind, realm: string, id: string) {
  const head = await findLive(db, kind, realm, id)
  if (!head) throw apiError(404, 'not_found', `${kind}.error.not_found`, 'id', id)
  return head
}

const requireQuiz = (db: D1Database, realm: string, id: string) => requireLive(db, 'quiz', realm, id)

/**
 * A quiz's or poll's ticket for a signed-in user: `moderator` when `moderator` (the control permission), else
 * `player` — only while it is active, and as its channel admits them (banned members and non-members of
 * private/invite-only channels are refused like the channel's). Room `quiz-<id>` or `poll-<id>` of the quiz party.
 */
async function liveTicket(c: Ctx, auth: Auth, kind: LiveKind, head: LiveHead, moderator: boolean) {
  if (!moderator) {
    if (head.status !== 'active') throw apiError(409, 'not_active', `${kind}.error.not_active`, 'status', head.status)
    const state = await liveChannelState(c.env.DB, auth.realm, head.channel_id)
    if (!state) throw apiError(404, 'not_found', 'channel.not_found', 'channel_id', head.channel_id)
    const permission = state.members[auth.nick]
    if (permission === 'banned') throw apiError(403, 'banned', 'live.cause.banned', 'id', head.id)
    if (!permission && (modeOn(state.channel.modes, 'private') || modeOn(state.channel.modes, 'invite_only')))
      throw apiError(403, 'members_only', 'live.cause.members_only', 'id', head.id)
  }
  const role = moderator ? 'moderator' : 'player'
  const room = `${kind}-${head.id}`
  const ticket = await signTicket(secret(c), { party: QUIZ_PARTY, room, realm: auth.realm, nick: auth.nick, name: auth.name, role })
  return { ticket, host: c.env.PARTYKIT_HOST, party: QUIZ_PARTY, room, role }
}

/** A guest's player ticket with a nickname (public channels only), and the resume token a dropped guest rejoins with. */
async function liveGuestTicket(c: Ctx, kind: LiveKind, body: QuizGuestJoin) {
  const realm = requestRealm(c)
  const id = pathParam(c, 'id')
  const notFound = `${kind}.error.not_found`
  if (!realm) throw apiError(404, 'not_found', notFound, 'id', id)
  const head = await findLive(c.env.DB, kind, realm, id)
  if (!head) throw apiError(404, 'not_found', notFound, 'id', id)
  if (head.status !== 'active') throw apiError(409, 'not_active', `${kind}.error.not_active`, 'status', head.status)
  const state = await liveChannelState(c.env.DB, realm, head.channel_id)
  const m = state?.channel.modes ?? {}
  if (!state || modeOn(m, 'private') || modeOn(m, 'invite_only') || modeOn(m, 'secret'))
    throw apiError(403, 'members_only', 'live.cause.members_only', 'id', id)
  const named = await checkWordFilter(c.env.DB, realm, body.name)
  if (named.matches.length) throw apiError(422, 'word_filter', 'validation.word_filter', 'name', named.matches)
  const room = `${kind}-${id}`
  // A rejoin with the first join's resume token is the same guest (their standing or votes stay theirs).
  const earlier = body.resume ? await verifyTicket(secret(c), body.resume, GUEST_RESUME, room) : null
  const nick = earlier && earlier.realm === realm ? earlier.nick : `guest:${randomToken(6)}`
  const name = earlier && earlier.realm === realm ? earlier.name : body.name
  const ticket = await signTicket(secret(c), { party: QUIZ_PARTY, room, realm, nick, name, role: 'player' })
  const resume = await signTicket(secret(c), { party: GUEST_RESUME, room, realm, nick, name }, RESUME_TTL_SECONDS)
  return { ticket, host: c.env.PARTYKIT_HOST, party: QUIZ_PARTY, room, role: 'player' as const, nick, resume }
}

/**
 * The calls a quiz and a poll share (`kind`, its control permission `control`): the console's and a player's
 * ticket (`moderator` with `control`, else `player`), a guest's ticket, and the party's state of the run (`state`:
 * the kind's own fields after its id, name and status), publish and result of a question (with its service ticket,
 * party `<kind>-api`).
 */
export function liveRunRoutes(kind: LiveKind, control: string, state: (db: D1Database, realm: string, id: string) => Promise<object>) {
  const api = `${kind}-api`
  return (
    new Hono<AppEnv>()
      /** POST /<kind>/live/{id}/ticket: a 60 s ticket to the room; `moderator` with the control permission, else `player`. */
      .post(
        '/:id/ticket',
        guarded({}, async (c, auth) => {
          const head = await requireLive(c.env.DB, kind, auth.realm, pathParam(c, 'id'))
          return c.json(await liveTicket(c, auth, kind, head, auth.permissions.has(control)))
        }),
      )
      /** POST /<kind>/live/{id}/guest: a guest's player ticket with a nickname, when the channel is public. */
      .post(
        '/:id/guest',
        guardedJson('public', QuizGuestJoin, async (c, _auth, body) => c.json(await liveGuestTicket(c, kind, body))),
      )
      /** GET /<kind>/live/{id}/state (party): the run's settings and its questions with their state. */
      .get(
        '/:id/state',
        guarded('public', async (c) => {
          const { realm, id } = await partyCaller(c, api)
          const db = c.env.DB
          const head = await requireLive(db, kind, realm, id)
          return c.json({ id: head.id, name: head.name, status: head.status, ...(await state(db, realm, id)) })
        }),
      )
      /** POST /<kind>/live/{id}/question/{qid}/publish (party): the question opens, with the party's publish time and deadline. */
      .post(
        '/:id/question/:qid/publish',
        guardedJson('public', PartyPublish, async (c, _auth, body) => {
          const { realm, id } = await partyCaller(c, api)
          const db = c.env.DB
          const qid = pathParam(c, 'qid')
          try {
            const [r] = await runBatch(db, [questionStateStatement(db, kind, realm, id, qid, ['pending'], 'published', body)])
            if (!r.meta.changes) throw apiError(409, 'state', 'quiz.error.question_publish', 'qid', qid)
          } catch (err) {
            if (String(err).includes('UNIQUE')) throw apiError(409, 'another_published', 'quiz.error.question_publish', 'qid', qid)
            throw err
          }
          return c.json({ id: qid, state: 'published' as const })
        }),
      )
      /** POST /<kind>/live/{id}/question/{qid}/result (party): the question shows its result. */
      .post(
        '/:id/question/:qid/result',
        guarded('public', async (c) => {
          const { realm, id } = await partyCaller(c, api)
          const db = c.env.DB
          const qid = pathParam(c, 'qid')
          const [r] = await runBatch(db, [questionStateStatement(db, kind, realm, id, qid, ['published'], 'result')])
          return c.json({ id: qid, state: 'result' as const, changed: (r.meta.changes ?? 0) > 0 })
        }),
      )
  )
}

/** GET /quiz/live/{id}/state (party): the quiz's settings and its questions with their correct option and state. */
async function quizState(db: D1Database, realm: string, quizId: string) {
  const [questions, full] = await Promise.all([quizQuestions(db, realm, quizId), quizLiveSettings(db, realm, quizId)])
  return {
    ...full,
    questions: questions.map((q) => ({
      id: q.id,
      position: q.position,
      text: q.text,
      options: { A: q.option_a, B: q.option_b, C: q.option_c } satisfies Record<QuizOption, string>,
      lifes_disallowed: q.lifes_disallowed,
      correct: q.correct,
      state: q.state,
    })),
  }
}

export const live = liveRunRoutes('quiz', 'quiz_quiz_control', quizState)
  /**
   * POST /quiz/live/{id}/question/{qid}/results (party): a closed question's answers (scored here with the same
   * formula; each player's first counts) and every standing, in pages (party/quiz-results.ts); the `final` page
   * finishes the question. A retry changes nothing more.
   */
  .post(
    '/:id/question/:qid/results',
    guardedJson('public', PartyResults, async (c, _auth, body) => {
      const { realm, id: quizId } = await partyCaller(c, PARTY_API)
      const db = c.env.DB
      const qid = pathParam(c, 'qid')
      const settings = await quizLiveSettings(db, realm, quizId)
      if (!settings) throw apiError(404, 'not_found', 'quiz.error.not_found', 'id', quizId)
      const questions = await quizQuestions(db, realm, quizId)
      const question = questions.find((q) => q.id === qid)
      if (!question) throw apiError(404, 'not_found', 'quiz.error.question_not_found', 'qid', qid)
      const duration = settings.question_duration * 1000
      const answers = body.answers.map((a) => ({
        ...a,
        correct: a.option === question.correct,
        score: answerScore(a.option === question.correct, a.ms, duration),
      }))
      await runBatch(db, questionResultStatements(db, realm, quizId, qid, answers, body.players, body.final))
      return c.json({ id: qid, answers: answers.length, players: body.players.length })
    }),
  )
  /** POST /quiz/live/{id}/standings (party): every standing (after the quiz ended with life windows open). */
  .post(
    '/:id/standings',
    guardedJson('public', PartyResults, async (c, _auth, body) => {
      const { realm, id: quizId } = await partyCaller(c, PARTY_API)
      await requireQuiz(c.env.DB, realm, quizId)
      await runBatch(c.env.DB, playerStatements(c.env.DB, realm, quizId, body.players))
      return c.json({ players: body.players.length })
    }),
  )
