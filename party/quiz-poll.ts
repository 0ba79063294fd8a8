import type * as Party from 'partykit/server'
import {
  PollClientMessage,
  type Phase,
  type PollLiveQuestion,
  type PollProfile,
  type PollRequirement,
  type PollServerMessage,
  type QuizCause,
  type QuizRole,
} from './quiz-protocol'
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

interface Meta {
  pollId: string
  realm: string
}

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

interface Current {
  question_id: string
  phase: Phase
  deadline: number
}

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

export class PollRoom {
  private meta: Meta | null = null
  private poll: PollState | null = null
  private pollAt = 0
  private cur: Current | null = null
  private voters = new Map<string, Voter>()
  private votes = new Map<string, StoredVote>()
  private counts: number[] = []
  private pending: string[] = []
  private ended = false
  private tally = new kit.ModeratorTally()

  constructor(readonly room: Party.Room) {}

  async start() {
    const s = this.room.storage
    const got = await s.get<unknown>(['meta', 'poll', 'cur', 'pending', 'ended'])
    this.meta = (got.get('meta') as Meta | undefined) ?? null
    this.poll = (got.get('poll') as PollState | undefined) ?? null
    this.cur = (got.get('cur') as Current | undefined) ?? null
    this.pending = (got.get('pending') as string[] | undefined) ?? []
    this.ended = (got.get('ended') as boolean | undefined) ?? false
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

  private current(): StateQuestion | undefined {
    const cur = this.cur
    return cur ? this.poll?.questions.find((q) => q.id === cur.question_id) : undefined
  }

  private missing(voter: Voter | undefined): PollRequirement[] {
    const requires = this.poll?.requires ?? {}
    return REQUIREMENTS.filter((r) => requires[r] && (voter?.profile?.[r] === undefined || voter.profile[r] === ''))
  }

  // ---------------------------------------------------------------- joining

  async connect(conn: Party.Connection<kit.ConnState>, ticket: Ticket) {
    if (!this.meta) {
      this.meta = { pollId: ticket.room.replace(/^poll-/, ''), realm: ticket.realm }
      await this.room.storage.put('meta', this.meta)
    }
    if (this.meta.realm !== ticket.realm) return this.refuse(conn, 'not_found')
    const poll = await this.state()
    if (poll === 'missing') return this.refuse(conn, 'not_found')
    if (!poll) return this.refuse(conn, 'unavailable')
    const role: QuizRole = ticket.role === 'moderator' ? 'moderator' : 'player'
    conn.setState({ nick: ticket.nick, name: ticket.name, role })
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

  private refuse(conn: Party.Connection, cause: QuizCause) {
    this.send(conn, { type: 'error', cause, message: CAUSE_TEXT[cause] })
    conn.close(4003, cause)
  }

  private playerCount(): number {
    return kit.playerCount(this.room)
  }

  // ---------------------------------------------------------------- messages

  async message(raw: string, conn: Party.Connection<kit.ConnState>) {
    const parsed = kit.parseClientMessage(PollClientMessage, raw)
    if ('error' in parsed) return this.error(conn, 'invalid_message', undefined, parsed.error)
    const msg = parsed.msg
    const s = conn.state
    if (!s) return this.error(conn, 'invalid_message')
    if (msg.type === 'profile') return this.profile(conn, s, msg.profile)
    if (msg.type === 'vote') return this.vote(conn, s, msg.question_id, msg.choices)
    if (s.role !== 'moderator') return this.error(conn, 'forbidden')
    switch (msg.type) {
      case 'publish':
        return this.publish(conn, msg.question_id)
      case 'result':
        return this.showResult(conn)
      case 'close':
        return this.close(conn)
      case 'end':
        return this.end()
    }
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
  private async publish(conn: Party.Connection<kit.ConnState>, qid: string) {
    const poll = await this.state(true)
    if (!poll || poll === 'missing') return this.error(conn, 'unavailable', qid)
    if (poll.status !== 'active' || this.ended) return this.error(conn, 'not_active', qid)
    if (this.cur && this.cur.phase !== 'idle') return this.error(conn, 'state', qid)
    const question = poll.questions.find((q) => q.id === qid)
    if (!question) return this.error(conn, 'wrong_question', qid)
    if (question.state !== 'pending') return this.error(conn, 'state', qid)
    const now = Date.now()
    const deadline = now + poll.question_duration * 1000
    const res = await this.api('POST', `question/${encodeURIComponent(qid)}/publish`, {
      published_at: new Date(now).toISOString(),
      deadline: new Date(deadline).toISOString(),
    })
    if (!res?.ok) return this.error(conn, res && res.status < 500 ? 'state' : 'unavailable', qid)
    question.state = 'published'
    this.cur = { question_id: qid, phase: 'open', deadline }
    this.votes.clear()
    this.counts = pollLabels(question).map(() => 0)
    await this.room.storage.put({ cur: this.cur, poll })
    this.broadcast({ type: 'poll_question', question: liveQuestion(question), deadline, now })
  }

  /** Moderator: shows the distribution to everyone (votes close if the deadline has not come). */
  private async showResult(conn: Party.Connection<kit.ConnState>) {
    const poll = this.poll
    const cur = this.cur
    const question = this.current()
    if (!poll || !cur || cur.phase !== 'open' || !question) return this.error(conn, 'state')
    this.cur = { ...cur, phase: 'result' }
    question.state = 'result'
    await this.room.storage.put({ cur: this.cur, poll })
    await this.api('POST', `question/${encodeURIComponent(cur.question_id)}/result`, {})
    this.broadcast({ type: 'poll_result', question_id: cur.question_id, counts: this.counts, voted: this.votes.size })
  }

  /** Moderator: finishes the question; its votes go to D1 (retried until taken). */
  private async close(conn: Party.Connection<kit.ConnState>) {
    const cur = this.cur
    const question = this.current()
    if (!cur || (cur.phase !== 'result' && cur.phase !== 'open') || !this.poll) return this.error(conn, 'state')
    if (question) question.state = 'finished'
    this.cur = { ...cur, phase: 'idle' }
    if (!this.pending.includes(cur.question_id)) this.pending.push(cur.question_id)
    await this.room.storage.put({ cur: this.cur, pending: this.pending, poll: this.poll })
    const written = await this.writeResults()
    this.broadcast({ type: 'closed', question_id: cur.question_id, written })
  }

  private async end() {
    this.ended = true
    await this.room.storage.put('ended', true)
    this.broadcast({ type: 'ended' })
  }

  // ---------------------------------------------------------------- results

  /** Writes each closed question's votes (with each voter's requirement answers); false (and a retry alarm) when not taken. */
  private writeResults(): Promise<boolean> {
    return kit.writePending(
      this.room,
      this.pending,
      async (qid) => {
        const prefix = `v:${qid}:`
        const votes = [...(await this.room.storage.list<StoredVote>({ prefix }))].map(([key, vote]) => {
          const nick = key.slice(prefix.length)
          return { nick, choices: vote.choices, profile: this.voters.get(nick)?.profile ?? {} }
        })
        // In pages under the API's body limit, the last one finishing the question (see quiz-results.ts).
        const bodies = resultPages(votes, []).map((page) => ({ votes: page.answers, final: page.final }))
        return { path: `question/${encodeURIComponent(qid)}/votes`, bodies }
      },
      (path, body) => this.api('POST', path, body),
    )
  }

  async alarm() {
    await this.writeResults()
  }

  /** The moderators' live tally, at most every TALLY_MS. */
  private scheduleTally() {
    this.tally.schedule(
      this.room,
      () =>
        ({
          type: 'poll_tally',
          question_id: this.cur?.question_id ?? '',
          counts: this.counts,
          voted: this.votes.size,
          players: this.playerCount(),
          now: Date.now(),
        }) satisfies PollServerMessage,
    )
  }

  // ---------------------------------------------------------------- realm API

  private async state(fresh = false): Promise<PollState | 'missing' | null> {
    if (this.poll && !fresh && Date.now() - this.pollAt < kit.STATE_TTL_MS) return this.poll
    return kit.readRunState(this.room, this.api('GET', 'state'), this.poll, 'poll', (read) => {
      this.poll = read
      this.pollAt = Date.now()
    })
  }

  /** A call to `/api/poll/live/{id}/…` with the party's service ticket (party `poll-api`); null when unreachable. */
  private api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response | null> {
    return kit.realmApiCall(this.room, 'poll', this.meta && { id: this.meta.pollId, realm: this.meta.realm }, method, path, body)
  }

  // ---------------------------------------------------------------- sending

  private send(conn: Party.Connection, message: PollServerMessage) {
    conn.send(JSON.stringify(message))
  }

  private error(conn: Party.Connection, cause: QuizCause | 'invalid_choice', questionId?: string, message?: string) {
    this.send(conn, { type: 'error', cause, message: message ?? CAUSE_TEXT[cause], ...(questionId ? { question_id: questionId } : {}) })
  }

  private broadcast(message: PollServerMessage) {
    kit.broadcastTo(this.room, message)
  }
}
