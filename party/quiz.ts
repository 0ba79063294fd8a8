import type * as Party from 'partykit/server'
import { answerScore } from '../worker/lib/quiz-score'
import {
  QuizClientMessage,
  TOP_N,
  type LeaderRow,
  type LiveQuestion,
  type Option,
  type QuizCause,
  type QuizServerMessage,
  type Standing,
} from './quiz-protocol'
import { PollRoom } from './quiz-poll'
import { resultPages } from './quiz-results'
import { verifyTicket, type Ticket } from './ticket'
import * as kit from './quiz-room-kit'
import { answerClose, knownRoomId } from './socket'

/**
 * The quiz party (issue 14): one room per running quiz (`quiz-<quizId>`), authoritative for the live state — the
 * current question, its deadline (this server's clock), the answers, scores and lives. Moderators (quiz_quiz_control)
 * publish a question, show its result and close it; players answer with one tap and use an extra life when they miss.
 *
 * Nothing is lost: an answer is stored in room storage before it is acknowledged with the question id, and a resend
 * (same player and question) is answered with the first acknowledgement, even after the deadline; an answer arriving
 * after the deadline is refused (`too_late`). Every player's standing is in room storage (`p:<nick>`), so a player who
 * reconnects, or a room that wakes from hibernation or restarts, gets it back. When a question is closed its answers
 * and every standing are written to D1 through the realm API, in pages under its body limit (idempotent; retried by
 * alarm until taken).
 *
 * Built for crowds: a question and a result are serialized once for everyone; the leaderboard is the top TOP_N plus
 * each player's own rank (one small message each, after the result); the moderators' live tally is throttled.
 */

/** The quiz as the realm API answers it to the party (questions with their correct option and state). */
interface QuizState {
  id: string
  name: string
  status: string
  question_duration: number
  lifes_timeout: number
  lives: number
  questions: (LiveQuestion & { correct: Option; state: string })[]
}

interface Current extends kit.RunCurrent {
  published_at: number
  life_until: number
}

interface Player extends Standing {
  nick: string
  name: string
  guest: boolean
}

interface StoredAnswer {
  option: Option
  ms: number
}

const pkey = (nick: string) => `p:${nick}`
const akey = (qid: string, nick: string) => `a:${qid}:${nick}`
const isGuest = (nick: string) => nick.startsWith('guest:')

const CAUSE_TEXT: Record<QuizCause, string> = {
  invalid_message: 'The message is not valid.',
  not_found: 'This quiz does not exist.',
  unavailable: 'The quiz is unavailable; try again.',
  forbidden: 'Your role may not do this.',
  not_active: 'The quiz is not running.',
  not_open: 'No question is open.',
  wrong_question: 'That question is not the current one.',
  too_late: 'The time to answer this question is over.',
  eliminated: 'You are out of this quiz.',
  no_life: 'You have no extra life to use.',
  life_expired: 'The time to use an extra life is over.',
  lives_disallowed: 'This question does not allow extra lives.',
  state: 'That cannot be done now.',
}

const byRank = (a: Player, b: Player) =>
  Number(a.eliminated) - Number(b.eliminated) || b.score - a.score || a.total_ms - b.total_ms || (a.nick < b.nick ? -1 : a.nick > b.nick ? 1 : 0)

export default class Quiz extends kit.RunRoom<'quiz', QuizState, Current, QuizServerMessage> implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: true }

  private players = new Map<string, Player>()
  private answers = new Map<string, StoredAnswer>()
  private counts: Record<Option, number> = { A: 0, B: 0, C: 0 }
  private leaderboard: LeaderRow[] = []
  private ranks = new Map<string, number>()

  /** Poll mode (room `poll-<pollId>`, party/quiz-poll.ts): the room runs a poll's votes instead of a quiz. */
  private poll: PollRoom | null = null

  constructor(room: Party.Room) {
    super(room, 'quiz', CAUSE_TEXT)
    const id = knownRoomId(room)
    if (id?.startsWith('poll-')) this.poll = new PollRoom(room)
  }

  static async onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    const ticket = await verifyTicket(String(lobby.env.PARTY_SECRET ?? ''), new URL(request.url).searchParams.get('ticket'), 'quiz', lobby.id)
    if (!ticket) return new Response('A valid ticket is required.', { status: 401 })
    request.headers.set('x-ticket', JSON.stringify(ticket))
    return request
  }

  async onStart() {
    // Woken by an alarm, the room does not know its id (party/socket.ts roomIdOf): a poll room says so in its meta.
    if (knownRoomId(this.room) === null && ((await this.room.storage.get<{ pollId?: string }>('meta')) ?? {}).pollId !== undefined)
      this.poll = new PollRoom(this.room)
    if (this.poll) return this.poll.start()
    const s = this.room.storage
    await this.loadRun()
    for (const p of (await s.list<Player>({ prefix: 'p:' })).values()) this.players.set(p.nick, p)
    if (this.cur) {
      const prefix = `a:${this.cur.question_id}:`
      for (const [key, a] of await s.list<StoredAnswer>({ prefix })) {
        this.answers.set(key.slice(prefix.length), a)
        this.counts[a.option]++
      }
    }
    this.rank()
  }

  // ---------------------------------------------------------------- joining

  async onConnect(conn: Party.Connection<kit.ConnState>, ctx: Party.ConnectionContext) {
    const ticket = JSON.parse(ctx.request.headers.get('x-ticket') ?? '{}') as Ticket
    if (this.poll) return this.poll.connect(conn, ticket)
    const admitted = await this.admit(conn, ticket)
    if (!admitted) return
    const { run: quiz, role } = admitted
    let player = this.players.get(ticket.nick) ?? null
    if (role === 'player' && !player) {
      // A late joiner enters at the current question with a clean standing.
      player = {
        nick: ticket.nick,
        name: ticket.name,
        guest: isGuest(ticket.nick),
        score: 0,
        total_ms: 0,
        correct_count: 0,
        lives_left: quiz.lives,
        lives_used: 0,
        eliminated: false,
        life_until: null,
      }
      this.players.set(player.nick, player)
      await this.room.storage.put(pkey(player.nick), player)
    }
    const cur = this.cur
    const question = this.current()
    const answer = player && cur ? this.answers.get(player.nick) : undefined
    const welcome: QuizServerMessage = {
      type: 'welcome',
      you: { nick: ticket.nick, name: ticket.name, role },
      quiz: {
        id: quiz.id,
        name: quiz.name,
        question_duration: quiz.question_duration,
        lifes_timeout: quiz.lifes_timeout,
        lives: quiz.lives,
        question_count: quiz.questions.length,
        status: this.ended ? 'finished' : quiz.status,
      },
      phase: this.ended ? 'ended' : (cur?.phase ?? 'idle'),
      question: question ? publicQuestion(question) : null,
      deadline: cur?.deadline ?? null,
      now: Date.now(),
      correct: question && cur && cur.phase !== 'open' ? question.correct : null,
      answer: answer && cur ? { question_id: cur.question_id, option: answer.option, ms: answer.ms } : null,
      standing: player ? standingOf(player) : null,
      rank: player ? (this.ranks.get(player.nick) ?? null) : null,
      leaderboard: this.leaderboard,
      players: this.playerCount(),
      ...(role === 'moderator' ? { questions: quiz.questions, counts: this.counts } : {}),
    }
    this.send(conn, welcome)
    if (role === 'player') this.scheduleTally()
  }

  onClose(conn: Party.Connection) {
    answerClose(conn)
    if (this.poll) return this.poll.closed()
    this.scheduleTally()
  }

  // ---------------------------------------------------------------- messages

  async onMessage(raw: string | ArrayBuffer | ArrayBufferView, conn: Party.Connection<kit.ConnState>) {
    const text = typeof raw === 'string' ? raw : new TextDecoder().decode(raw as ArrayBuffer)
    if (this.poll) return this.poll.message(text, conn)
    const received = this.receive(QuizClientMessage, text, conn)
    if (!received) return
    const { msg, s } = received
    if (msg.type === 'answer') return this.answer(conn, s, msg.question_id, msg.option)
    if (msg.type === 'life') return this.life(conn, s, msg.question_id)
    return this.moderate(conn, s, msg)
  }

  /** A player's answer: stored, then acknowledged; a resend gets the first acknowledgement. */
  private async answer(conn: Party.Connection<kit.ConnState>, s: kit.ConnState, qid: string, option: Option) {
    if (s.role !== 'player') return this.error(conn, 'forbidden', qid)
    const cur = this.cur
    if (!cur || cur.question_id !== qid) {
      // A resend of an answer to an earlier question: the same acknowledgement, if it counted.
      const earlier = await this.room.storage.get<StoredAnswer>(akey(qid, s.nick))
      if (earlier) return this.send(conn, { type: 'ack', question_id: qid, option: earlier.option, ms: earlier.ms })
      return this.error(conn, cur ? 'wrong_question' : 'not_open', qid)
    }
    const known = this.answers.get(s.nick)
    if (known) return this.send(conn, { type: 'ack', question_id: qid, option: known.option, ms: known.ms })
    const now = Date.now()
    if (cur.phase !== 'open' || now > cur.deadline) return this.error(conn, 'too_late', qid)
    const player = this.players.get(s.nick)
    if (!player || player.eliminated) return this.error(conn, 'eliminated', qid)
    const stored: StoredAnswer = { option, ms: now - cur.published_at }
    this.answers.set(s.nick, stored)
    this.counts[option]++
    await this.room.storage.put(akey(qid, s.nick), stored)
    this.send(conn, { type: 'ack', question_id: qid, option, ms: stored.ms })
    this.scheduleTally()
  }

  /** A missed player spends an extra life within the timeout after the result. */
  private async life(conn: Party.Connection<kit.ConnState>, s: kit.ConnState, qid: string) {
    const player = this.players.get(s.nick)
    if (s.role !== 'player' || !player) return this.error(conn, 'forbidden', qid)
    if (!this.cur || this.cur.question_id !== qid || player.life_until === null) return this.error(conn, 'state', qid)
    if (Date.now() > player.life_until) {
      player.life_until = null
      player.eliminated = true
      await this.room.storage.put(pkey(player.nick), player)
      return this.error(conn, 'life_expired', qid)
    }
    if (player.lives_left < 1) return this.error(conn, 'no_life', qid)
    player.lives_left--
    player.lives_used++
    player.life_until = null
    await this.room.storage.put(pkey(player.nick), player)
    this.send(conn, { type: 'life', question_id: qid, standing: standingOf(player) })
  }

  /** Moderator: opens a pending question; the deadline is this server's now + the question time. */
  protected async publish(conn: Party.Connection, qid: string) {
    const published = await this.publishQuestion(conn, qid)
    if (!published) return
    const { run: quiz, question, now, deadline } = published
    // Publishing the next question ends every open extra-life window: who did not use a life is out.
    const changed: Player[] = []
    for (const p of this.players.values())
      if (p.life_until !== null) {
        p.life_until = null
        p.eliminated = true
        changed.push(p)
      }
    await this.putPlayers(changed)
    question.state = 'published'
    this.cur = { question_id: qid, phase: 'open', published_at: now, deadline, life_until: 0 }
    this.answers.clear()
    this.counts = { A: 0, B: 0, C: 0 }
    await this.room.storage.put({ cur: this.cur, quiz })
    this.broadcast({ type: 'question', question: publicQuestion(question), deadline, now })
  }

  /** Moderator: shows the result; scores and lives are settled, everyone gets the result and their own standing. */
  protected async showResult(conn: Party.Connection) {
    const quiz = this.run
    const cur = this.cur
    if (!quiz || !cur || cur.phase !== 'open') return this.error(conn, 'state')
    const question = quiz.questions.find((q) => q.id === cur.question_id)!
    const now = Date.now()
    const durationMs = quiz.question_duration * 1000
    const lifeUntil = now + quiz.lifes_timeout * 1000
    const outcome = new Map<string, boolean | null>()
    for (const p of this.players.values()) {
      if (p.eliminated) continue
      const a = this.answers.get(p.nick)
      const right = a?.option === question.correct
      outcome.set(p.nick, a ? right : null)
      p.total_ms += a ? a.ms : durationMs
      if (right) {
        p.score += answerScore(true, a!.ms, durationMs)
        p.correct_count++
      } else if (!question.lifes_disallowed && p.lives_left > 0) p.life_until = lifeUntil
      else p.eliminated = true
    }
    this.cur = { ...cur, phase: 'result', life_until: lifeUntil }
    question.state = 'result'
    await this.putPlayers([...this.players.values()])
    await this.room.storage.put({ cur: this.cur, quiz })
    this.rank()
    void this.api('POST', `question/${encodeURIComponent(cur.question_id)}/result`, {})
    this.broadcast({
      type: 'result',
      question_id: cur.question_id,
      correct: question.correct,
      counts: this.counts,
      leaderboard: this.leaderboard,
      life_until: lifeUntil,
      now,
    })
    for (const c of this.room.getConnections<kit.ConnState>()) {
      const p = c.state?.role === 'player' ? this.players.get(c.state.nick) : undefined
      if (p)
        this.send(c, {
          type: 'standing',
          question_id: cur.question_id,
          correct: outcome.get(p.nick) ?? null,
          standing: standingOf(p),
          rank: this.ranks.get(p.nick) ?? 0,
        })
    }
  }

  /** Moderator: finishes the question showing its result; its results go to D1 (retried until taken). */
  protected close(conn: Party.Connection) {
    return this.closeQuestion(conn, ['result'])
  }

  /** Moderator: the quiz ended in the console; open life windows close and everyone gets the final leaderboard. */
  protected async end() {
    const changed = [...this.players.values()].filter((p) => p.life_until !== null)
    for (const p of changed) {
      p.life_until = null
      p.eliminated = true
    }
    await this.putPlayers(changed)
    this.ended = true
    await this.room.storage.put('ended', true)
    this.rank()
    if (changed.length && !this.pending.includes('')) this.pending.push('')
    await this.writeResults()
    this.broadcast({ type: 'ended', leaderboard: this.leaderboard })
  }

  // ---------------------------------------------------------------- results

  /** A pending question's answers and every standing ('': the standings alone). */
  protected async resultPages(qid: string) {
    const answers = qid
      ? [...(await this.room.storage.list<StoredAnswer>({ prefix: `a:${qid}:` }))].map(([key, a]) => ({ nick: key.slice(`a:${qid}:`.length), ...a }))
      : []
    // In pages under the API's body limit, the last one finishing the question (see quiz-results.ts).
    return { path: qid ? `question/${encodeURIComponent(qid)}/results` : 'standings', bodies: resultPages(answers, [...this.players.values()]) }
  }

  async onAlarm() {
    if (this.poll) return this.poll.alarm()
    await this.alarm()
  }

  private rank() {
    const sorted = [...this.players.values()].sort(byRank)
    this.ranks = new Map(sorted.map((p, i) => [p.nick, i + 1]))
    this.leaderboard = sorted
      .slice(0, TOP_N)
      .map((p, i) => ({ rank: i + 1, nick: p.nick, name: p.name, score: p.score, total_ms: p.total_ms, eliminated: p.eliminated }))
  }

  private async putPlayers(players: Player[]) {
    for (let i = 0; i < players.length; i += 128) await this.room.storage.put(Object.fromEntries(players.slice(i, i + 128).map((p) => [pkey(p.nick), p])))
  }

  protected tallied(): Pick<Extract<QuizServerMessage, { type: 'tally' }>, 'type' | 'counts' | 'answered'> {
    return { type: 'tally', counts: this.counts, answered: this.answers.size }
  }
}

function publicQuestion(q: LiveQuestion): LiveQuestion {
  return { id: q.id, position: q.position, text: q.text, options: q.options, lifes_disallowed: q.lifes_disallowed }
}

function standingOf(p: Player): Standing {
  return {
    score: p.score,
    total_ms: p.total_ms,
    correct_count: p.correct_count,
    lives_left: p.lives_left,
    lives_used: p.lives_used,
    eliminated: p.eliminated,
    life_until: p.life_until,
  }
}

Quiz satisfies Party.Worker
