import type * as Party from 'partykit/server'
import { PollClientMessage, type PollLiveQuestion, type PollProfile, type PollRequirement, type PollServerMessage, type QuizCause } from './quiz-protocol'
import type { Ticket } from './ticket'
import { resultPages } from './quiz-results'
import * as kit from './quiz-room-kit'

/**
 * The quiz party's poll mode (issue 14): room `poll-<pollId>` runs a poll's questions as votes. The moderator
 * (poll_poll_control) publishes a question, shows its result and closes it, as in a quiz; a player answers the poll's
 * requirements (age, gender, location) once, then votes: one vote per player and question, stored in room storage
 * before it is acknowledged (`voted` with the question id); a resend — even after the deadline or a reconnection —
 * gets the first vote's acknowledgement; a new vote after the deadline is refused (`too_late`). The moderators get the
 * votes per option as they arrive (throttled), and everyone the distribution at the result; a closed question's votes
 * go to D1 (`poll_vote`, through the realm API), retried by alarm until taken.
 */

interface StateQuestion {
  id: string
  position: number
  text: string
  type: 'single' | 'multiple' | 'rating'
  options: string[]
  params: { max_choices?: number; scale?: number }
  state: string
}

/** The poll as the realm API answers it to the party. */
interface PollState {
  id: string
  name: string
  type: string
  status: string
  question_duration: number
  requires: Partial<Record<PollRequirement, boolean>>
  questions: StateQuestion[]
}

type Current = kit.RunCurrent

interface Voter {
  nick: string
  profile: PollProfile | null
}

interface StoredVote {
  choices: number[]
}

const REQUIREMENTS: PollRequirement[] = ['age', 'gender', 'location']
const pkey = (nick: string) => `p:${nick}`
const vkey = (qid: string, nick: string) => `v:${qid}:${nick}`

const CAUSE_TEXT: Record<QuizCause | 'requirements' | 'invalid_choice', string> = {
  invalid_message: 'The message is not valid.',
  not_found: 'This poll does not exist.',
  unavailable: 'The poll is unavailable; try again.',
  forbidden: 'Your role may not do this.',
  not_active: 'The poll is not running.',
  not_open: 'No question is open.',
  wrong_question: 'That question is not the current one.',
  too_late: 'The time to vote on this question is over.',
  eliminated: 'You are out.',
  no_life: 'You have no extra life to use.',
  life_expired: 'The time to use an extra life is over.',
  lives_disallowed: 'This question does not allow extra lives.',
  state: 'That cannot be done now.',
  requirements: 'Answer the poll’s requirements before voting.',
  invalid_choice: 'That choice does not fit this question.',
}

/** The labels a question's votes are counted under: its options, or 1…scale for a rating. */
export function pollLabels(q: Pick<StateQuestion, 'type' | 'options' | 'params'>): string[] {
  return q.type === 'rating' ? Array.from({ length: q.params.scale ?? 5 }, (_, i) => String(i + 1)) : q.options
}

function liveQuestion(q: StateQuestion): PollLiveQuestion {
  return { id: q.id, position: q.position, text: q.text, type: q.type, labels: pollLabels(q), max_choices: q.params.max_choices ?? 0 }
}

/** Why a vote's choices do not fit the question, or null: one for single and rating, 1…max_choices distinct for multiple. */
function choiceProblem(q: StateQuestion, choices: number[]): boolean {
  const n = pollLabels(q).length
  if (choices.some((c) => c >= n) || new Set(choices).size !== choices.length) return true
  if (q.type !== 'multiple') return choices.length !== 1
  const max = q.params.max_choices ?? 0
  return max > 0 && choices.length > max
}

export class PollRoom extends kit.RunRoom<'poll', PollState, Current, PollServerMessage, 'requirements' | 'invalid_choice'> {
  private voters = new Map<string, Voter>()
  private votes = new Map<string, StoredVote>()
  private counts: number[] = []

  constructor(room: Party.Room) {
    super(room, 'poll', CAUSE_TEXT)
  }

  async start() {
    const s = this.room.storage
    await this.loadRun()
    for (const p of (await s.list<Voter>({ prefix: 'p:' })).values()) this.voters.set(p.nick, p)
    const q = this.current()
    this.counts = q ? pollLabels(q).map(() => 0) : []
    if (this.cur) {
      const prefix = `v:${this.cur.question_id}:`
      for (const [key, vote] of await s.list<StoredVote>({ prefix })) {
        this.votes.set(key.slice(prefix.length), vote)
        for (const c of vote.choices) this.counts[c] = (this.counts[c] ?? 0) + 1
      }
    }
  }

  private missing(voter: Voter | undefined): PollRequirement[] {
    const requires = this.run?.requires ?? {}
    return REQUIREMENTS.filter((r) => requires[r] && (voter?.profile?.[r] === undefined || voter.profile[r] === ''))
  }

  // ---------------------------------------------------------------- joining

  async connect(conn: Party.Connection<kit.ConnState>, ticket: Ticket) {
    const admitted = await this.admit(conn, ticket)
    if (!admitted) return
    const { run: poll, role } = admitted
    let voter = this.voters.get(ticket.nick)
    if (role === 'player' && !voter) {
      voter = { nick: ticket.nick, profile: null }
      this.voters.set(voter.nick, voter)
      await this.room.storage.put(pkey(voter.nick), voter)
    }
    const cur = this.cur
    const question = this.current()
    const vote = role === 'player' && cur ? this.votes.get(ticket.nick) : undefined
    const showCounts = role === 'moderator' || cur?.phase === 'result'
    this.send(conn, {
      type: 'poll_welcome',
      you: { nick: ticket.nick, name: ticket.name, role },
      poll: {
        id: poll.id,
        name: poll.name,
        type: poll.type,
        question_duration: poll.question_duration,
        question_count: poll.questions.length,
        status: this.ended ? 'finished' : poll.status,
        requires: REQUIREMENTS.filter((r) => poll.requires[r]),
      },
      phase: this.ended ? 'ended' : (cur?.phase ?? 'idle'),
      question: question && cur?.phase !== 'idle' ? liveQuestion(question) : null,
      deadline: cur?.deadline ?? null,
      now: Date.now(),
      vote: vote && cur ? { question_id: cur.question_id, choices: vote.choices } : null,
      profile: voter?.profile ?? null,
      players: this.playerCount(),
      counts: showCounts && question ? this.counts : null,
      voted: this.votes.size,
      ...(role === 'moderator' ? { questions: poll.questions.map((q) => ({ ...liveQuestion(q), state: q.state })) } : {}),
    })
    if (role === 'player') this.scheduleTally()
  }

  closed() {
    this.scheduleTally()
  }

  // ---------------------------------------------------------------- messages

  async message(raw: string, conn: Party.Connection<kit.ConnState>) {
    const received = this.receive(PollClientMessage, raw, conn)
    if (!received) return
    const { msg, s } = received
    if (msg.type === 'profile') return this.profile(conn, s, msg.profile)
    if (msg.type === 'vote') return this.vote(conn, s, msg.question_id, msg.choices)
    return this.moderate(conn, s, msg)
  }

  /** A player's answers to the requirements: kept for every later vote (and a rejoin). */
  private async profile(conn: Party.Connection<kit.ConnState>, s: kit.ConnState, profile: PollProfile) {
    const voter = this.voters.get(s.nick)
    if (s.role !== 'player' || !voter) return this.error(conn, 'forbidden')
    voter.profile = { ...voter.profile, ...profile }
    const missing = this.missing(voter)
    await this.room.storage.put(pkey(voter.nick), voter)
    if (missing.length) return this.send(conn, { type: 'error', cause: 'requirements', message: CAUSE_TEXT.requirements, missing })
    this.send(conn, { type: 'profile_ok', profile: voter.profile })
  }

  /** A vote: stored, then acknowledged; a resend gets the first vote's acknowledgement. */
  private async vote(conn: Party.Connection<kit.ConnState>, s: kit.ConnState, qid: string, choices: number[]) {
    if (s.role !== 'player') return this.error(conn, 'forbidden', qid)
    const cur = this.cur
    if (!cur || cur.question_id !== qid) {
      const earlier = await this.room.storage.get<StoredVote>(vkey(qid, s.nick))
      if (earlier) return this.send(conn, { type: 'voted', question_id: qid, choices: earlier.choices })
      return this.error(conn, cur ? 'wrong_question' : 'not_open', qid)
    }
    const known = this.votes.get(s.nick)
    if (known) return this.send(conn, { type: 'voted', question_id: qid, choices: known.choices })
    if (cur.phase !== 'open' || Date.now() > cur.deadline) return this.error(conn, 'too_late', qid)
    const voter = this.voters.get(s.nick)
    const missing = this.missing(voter)
    if (missing.length) return this.send(conn, { type: 'error', cause: 'requirements', message: CAUSE_TEXT.requirements, question_id: qid, missing })
    const question = this.current()
    if (!question || choiceProblem(question, choices)) return this.error(conn, 'invalid_choice', qid)
    const stored: StoredVote = { choices: [...choices].sort((a, b) => a - b) }
    this.votes.set(s.nick, stored)
    for (const c of stored.choices) this.counts[c] = (this.counts[c] ?? 0) + 1
    await this.room.storage.put(vkey(qid, s.nick), stored)
    this.send(conn, { type: 'voted', question_id: qid, choices: stored.choices })
    this.scheduleTally()
  }

  /** Moderator: opens a pending question; the deadline is this server's now + the question time. */
  protected async publish(conn: Party.Connection, qid: string) {
    const published = await this.publishQuestion(conn, qid)
    if (!published) return
    const { run: poll, question, now, deadline } = published
    question.state = 'published'
    this.cur = { question_id: qid, phase: 'open', deadline }
    this.votes.clear()
    this.counts = pollLabels(question).map(() => 0)
    await this.room.storage.put({ cur: this.cur, poll })
    this.broadcast({ type: 'poll_question', question: liveQuestion(question), deadline, now })
  }

  /** Moderator: shows the distribution to everyone (votes close if the deadline has not come). */
  protected async showResult(conn: Party.Connection) {
    const poll = this.run
    const cur = this.cur
    const question = this.current()
    if (!poll || !cur || cur.phase !== 'open' || !question) return this.error(conn, 'state')
    this.cur = { ...cur, phase: 'result' }
    question.state = 'result'
    await this.room.storage.put({ cur: this.cur, poll })
    await this.api('POST', `question/${encodeURIComponent(cur.question_id)}/result`, {})
    this.broadcast({ type: 'poll_result', question_id: cur.question_id, counts: this.counts, voted: this.votes.size })
  }

  /** Moderator: finishes the question, open or showing its result (a poll may close without showing it); its votes go to D1. */
  protected close(conn: Party.Connection) {
    return this.closeQuestion(conn, ['result', 'open'])
  }

  protected async end() {
    this.ended = true
    await this.room.storage.put('ended', true)
    this.broadcast({ type: 'ended' })
  }

  // ---------------------------------------------------------------- results

  /** A closed question's votes (with each voter's requirement answers). */
  protected async resultPages(qid: string) {
    const prefix = `v:${qid}:`
    const votes = [...(await this.room.storage.list<StoredVote>({ prefix }))].map(([key, vote]) => {
      const nick = key.slice(prefix.length)
      return { nick, choices: vote.choices, profile: this.voters.get(nick)?.profile ?? {} }
    })
    // In pages under the API's body limit, the last one finishing the question (see quiz-results.ts).
    const bodies = resultPages(votes, []).map((page) => ({ votes: page.answers, final: page.final }))
    return { path: `question/${encodeURIComponent(qid)}/votes`, bodies }
  }

  protected tallied(): Pick<Extract<PollServerMessage, { type: 'poll_tally' }>, 'type' | 'counts' | 'voted'> {
    return { type: 'poll_tally', counts: this.counts, voted: this.votes.size }
  }
}
