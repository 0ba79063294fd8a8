import type * as Party from 'partykit/server'
import * as v from 'valibot'
import type { Phase, QuizCause, QuizRole } from './quiz-protocol'
import { signTicket, type Ticket } from './ticket'

/**
 * What the quiz party's two modes share (party/quiz.ts runs a quiz, party/quiz-poll.ts a poll): the connection
 * state, the client message's parsing, the player count, sending, the moderators' throttled tally, the realm API
 * call with the party's service ticket, the cached read of the run's state and the retried write of closed
 * questions' results, and the room both modes build on (RunRoom: what is kept in storage, who is admitted, the
 * moderators' messages, a question's publish and close). What differs (scores and lives, votes and requirements)
 * stays in each mode.
 */

export const RETRY_MS = 5_000
export const TALLY_MS = 250
export const STATE_TTL_MS = 5_000

export interface ConnState {
  nick: string
  name: string
  role: QuizRole
}

/** The run's questions as the party tracks them (their state wins over a read that raced with its writes). */
interface RunState {
  questions: { id: string; state: string }[]
}

/** A client's message checked against its mode's schema; `error` is the first issue's text when it is not valid. */
export function parseClientMessage<S extends v.GenericSchema>(schema: S, raw: string): { msg: v.InferOutput<S> } | { error: string | undefined } {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    parsed = undefined
  }
  const result = v.safeParse(schema, parsed)
  return result.success ? { msg: result.output } : { error: result.issues[0]?.message }
}

/** The players connected (a player on two devices counts once). */
export function playerCount(room: Party.Room): number {
  const nicks = new Set<string>()
  for (const c of room.getConnections<ConnState>()) if (c.state?.role === 'player') nicks.add(c.state.nick)
  return nicks.size
}

/** Serialized once, sent to every connection. */
export function broadcastTo(room: Party.Room, message: unknown) {
  const payload = JSON.stringify(message)
  for (const c of room.getConnections()) c.send(payload)
}

/** The moderators' live tally, built and sent at most every TALLY_MS. */
export class ModeratorTally {
  private timer: ReturnType<typeof setTimeout> | null = null

  schedule(room: Party.Room, build: () => unknown) {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = null
      const payload = JSON.stringify(build())
      for (const c of room.getConnections<ConnState>()) if (c.state?.role === 'moderator') c.send(payload)
    }, TALLY_MS)
  }
}

/**
 * A call to `/api/<kind>/live/{id}/…` with the party's service ticket (party `<kind>-api`, room = the quiz's or
 * poll's id); null when the API cannot be reached (or the party has no secret or API address).
 */
export async function realmApiCall(
  room: Party.Room,
  kind: 'quiz' | 'poll',
  meta: { id: string; realm: string } | null,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Response | null> {
  const env = room.env
  if (!meta || !env.PARTY_SECRET || !env.REALM_API_URL) return null
  const ticket = await signTicket(String(env.PARTY_SECRET), { party: `${kind}-api`, room: meta.id, realm: meta.realm, nick: 'party', name: 'quiz party' })
  try {
    return await fetch(`${String(env.REALM_API_URL).replace(/\/$/, '')}/api/${kind}/live/${encodeURIComponent(meta.id)}/${path}`, {
      method,
      headers: { 'x-party-ticket': ticket, 'x-api-realm': meta.realm, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    return null
  }
}

/**
 * The run's state read again from the realm API (`GET state`) and kept in room storage under `key`: 'missing' when
 * the realm has no such quiz or poll, `known` when the API cannot be reached; `keep` takes a new read first.
 */
export async function readRunState<T extends RunState>(
  room: Party.Room,
  get: Promise<Response | null>,
  known: T | null,
  key: string,
  keep: (read: T) => void,
): Promise<T | 'missing' | null> {
  const res = await get
  if (res?.status === 404) return 'missing'
  if (!res?.ok) return known
  const read = (await res.json()) as T
  // The party's own view of questions it has run wins over a read that raced with its writes.
  const mine = new Map((known?.questions ?? []).map((q) => [q.id, q.state]))
  for (const q of read.questions) if (mine.get(q.id) && mine.get(q.id) !== 'pending' && q.state === 'pending') q.state = mine.get(q.id)!
  keep(read)
  await room.storage.put(key, read)
  return read
}

/**
 * Posts each pending question's result pages (`pagesOf`: the path and the bodies, see quiz-results.ts), oldest
 * first, dropping a question from `pending` once every page is taken; false (and an alarm to retry) when not taken.
 */
export async function writePending(
  room: Party.Room,
  pending: string[],
  pagesOf: (qid: string) => Promise<{ path: string; bodies: unknown[] }>,
  post: (path: string, body: unknown) => Promise<Response | null>,
): Promise<boolean> {
  while (pending.length) {
    const { path, bodies } = await pagesOf(pending[0])
    for (const body of bodies) {
      const res = await post(path, body)
      if (!res?.ok) {
        await room.storage.setAlarm(Date.now() + RETRY_MS)
        return false
      }
    }
    pending.shift()
    await room.storage.put('pending', pending)
  }
  return true
}

/** The run's state as both modes read it from the realm API (each mode's own fields besides). */
export interface RunStateBase extends RunState {
  id: string
  name: string
  status: string
  question_duration: number
}

/** The current question as the room keeps it (`cur`). */
export interface RunCurrent {
  question_id: string
  phase: Phase
  deadline: number
}

/** What the room keeps of its first ticket: `quizId` or `pollId` (a poll room woken by an alarm says so), and the realm. */
export type RunMeta<K extends 'quiz' | 'poll'> = { realm: string } & Record<`${K}Id`, string>

/** The messages both modes send with the same shape. */
type RunMessage<Cause extends string> =
  { type: 'error'; cause: Cause; message: string; question_id?: string } | { type: 'closed'; question_id: string; written: boolean }

/** A moderator's message, the same in both modes. */
export type ModeratorMessage = { type: 'publish'; question_id: string } | { type: 'result' } | { type: 'close' } | { type: 'end' }

/**
 * A quiz's or a poll's room (`kind`): its state `S` read from the realm API (kept under the key `kind`), the current
 * question `C`, the closed questions whose results are not written yet, the server messages `M` and the causes'
 * texts (`QuizCause` and the mode's own `Extra`).
 */
export abstract class RunRoom<
  K extends 'quiz' | 'poll',
  S extends RunStateBase,
  C extends RunCurrent,
  M extends { type: string },
  Extra extends string = never,
> {
  protected meta: RunMeta<K> | null = null
  protected run: S | null = null
  private runAt = 0
  protected cur: C | null = null
  /** Questions closed whose results the realm API has not taken yet. */
  protected pending: string[] = []
  protected ended = false
  private tally = new ModeratorTally()

  constructor(
    readonly room: Party.Room,
    private readonly kind: K,
    private readonly causeText: Record<QuizCause | Extra, string>,
  ) {}

  /** What the room kept (meta, the run's state, the current question, pending writes, ended); the mode loads its own. */
  protected async loadRun() {
    const got = await this.room.storage.get<unknown>(['meta', this.kind, 'cur', 'pending', 'ended'])
    this.meta = (got.get('meta') as RunMeta<K> | undefined) ?? null
    this.run = (got.get(this.kind) as S | undefined) ?? null
    this.cur = (got.get('cur') as C | undefined) ?? null
    this.pending = (got.get('pending') as string[] | undefined) ?? []
    this.ended = (got.get('ended') as boolean | undefined) ?? false
  }

  /** The current question of the run's state. */
  protected current(): S['questions'][number] | undefined {
    const cur = this.cur
    return cur ? this.run?.questions.find((q) => q.id === cur.question_id) : undefined
  }

  // ---------------------------------------------------------------- joining

  /**
   * A connection with its verified ticket: the room's meta from the first ticket; refused (null) when the ticket's
   * realm is not the room's, the realm has no such run or the API cannot be reached; else its role kept on the
   * connection, and the run's state.
   */
  protected async admit(conn: Party.Connection<ConnState>, ticket: Ticket): Promise<{ run: S; role: QuizRole } | null> {
    if (!this.meta) {
      const prefix = `${this.kind}-`
      const id = ticket.room.startsWith(prefix) ? ticket.room.slice(prefix.length) : ticket.room
      this.meta = { [`${this.kind}Id`]: id, realm: ticket.realm } as RunMeta<K>
      await this.room.storage.put('meta', this.meta)
    }
    if (this.meta.realm !== ticket.realm) return this.refuse(conn, 'not_found')
    const run = await this.state()
    if (run === 'missing') return this.refuse(conn, 'not_found')
    if (!run) return this.refuse(conn, 'unavailable')
    const role: QuizRole = ticket.role === 'moderator' ? 'moderator' : 'player'
    conn.setState({ nick: ticket.nick, name: ticket.name, role })
    return { run, role }
  }

  private refuse(conn: Party.Connection, cause: QuizCause): null {
    this.error(conn, cause)
    conn.close(4003, cause)
    return null
  }

  protected playerCount(): number {
    return playerCount(this.room)
  }

  // ---------------------------------------------------------------- messages

  /** A client's message checked against the mode's `schema`, with its sender's state; null once refused. */
  protected receive<T>(schema: v.GenericSchema<unknown, T>, raw: string, conn: Party.Connection<ConnState>): { msg: T; s: ConnState } | null {
    const parsed = parseClientMessage(schema, raw)
    if ('error' in parsed) {
      this.error(conn, 'invalid_message', undefined, parsed.error)
      return null
    }
    const s = conn.state
    if (!s) {
      this.error(conn, 'invalid_message')
      return null
    }
    return { msg: parsed.msg as T, s }
  }

  /** A moderator's message (anyone else's is refused). */
  protected moderate(conn: Party.Connection, s: ConnState, msg: ModeratorMessage) {
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

  protected abstract publish(conn: Party.Connection, qid: string): Promise<void>
  protected abstract showResult(conn: Party.Connection): Promise<void>
  protected abstract close(conn: Party.Connection): Promise<void>
  protected abstract end(): Promise<void>

  /**
   * Moderator: a pending question of a running run published through the realm API, its deadline this server's now
   * + the question time; the question, its time and deadline, or null once refused. The mode opens it.
   */
  protected async publishQuestion(
    conn: Party.Connection,
    qid: string,
  ): Promise<{ run: S; question: S['questions'][number]; now: number; deadline: number } | null> {
    const run = await this.state(true)
    if (!run || run === 'missing') return this.refused(conn, 'unavailable', qid)
    if (run.status !== 'active' || this.ended) return this.refused(conn, 'not_active', qid)
    if (this.cur && this.cur.phase !== 'idle') return this.refused(conn, 'state', qid)
    const question = run.questions.find((q) => q.id === qid)
    if (!question) return this.refused(conn, 'wrong_question', qid)
    if (question.state !== 'pending') return this.refused(conn, 'state', qid)
    const now = Date.now()
    const deadline = now + run.question_duration * 1000
    const res = await this.api('POST', `question/${encodeURIComponent(qid)}/publish`, {
      published_at: new Date(now).toISOString(),
      deadline: new Date(deadline).toISOString(),
    })
    if (!res?.ok) return this.refused(conn, res && res.status < 500 ? 'state' : 'unavailable', qid)
    return { run, question, now, deadline }
  }

  /** Moderator: finishes the current question when its phase is one of `from`; its results go to D1 (retried until taken). */
  protected async closeQuestion(conn: Party.Connection, from: Phase[]) {
    const cur = this.cur
    const question = this.current()
    if (!cur || !from.includes(cur.phase) || !this.run) return this.error(conn, 'state')
    if (question) question.state = 'finished'
    this.cur = { ...cur, phase: 'idle' }
    if (!this.pending.includes(cur.question_id)) this.pending.push(cur.question_id)
    await this.room.storage.put({ cur: this.cur, pending: this.pending, [this.kind]: this.run })
    const written = await this.writeResults()
    this.broadcast({ type: 'closed', question_id: cur.question_id, written })
  }

  // ---------------------------------------------------------------- results

  /** A pending question's result pages (`qid` '' where a mode writes something else, e.g. the quiz's standings). */
  protected abstract resultPages(qid: string): Promise<{ path: string; bodies: unknown[] }>

  /** Writes each pending question's results; false (and an alarm to retry) when the API did not take them. */
  protected writeResults(): Promise<boolean> {
    return writePending(
      this.room,
      this.pending,
      (qid) => this.resultPages(qid),
      (path, body) => this.api('POST', path, body),
    )
  }

  async alarm() {
    await this.writeResults()
  }

  /** The mode's tally message type and counts (the current question, player count and server time are added). */
  protected abstract tallied(): { type: string; counts: unknown } & Record<string, unknown>

  /** The moderators' live tally, at most every TALLY_MS. */
  protected scheduleTally() {
    this.tally.schedule(this.room, () => {
      const { type, ...counts } = this.tallied()
      return { type, question_id: this.cur?.question_id ?? '', ...counts, players: this.playerCount(), now: Date.now() }
    })
  }

  // ---------------------------------------------------------------- realm API

  /** The run from the realm API (cached; `fresh` reads it again); 'missing' when the realm has no such run. */
  protected async state(fresh = false): Promise<S | 'missing' | null> {
    if (this.run && !fresh && Date.now() - this.runAt < STATE_TTL_MS) return this.run
    return readRunState(this.room, this.api('GET', 'state'), this.run, this.kind, (read) => {
      this.run = read
      this.runAt = Date.now()
    })
  }

  /** A call to `/api/<kind>/live/{id}/…` with the party's service ticket (party `<kind>-api`); null when unreachable. */
  protected api(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response | null> {
    const meta = this.meta
    return realmApiCall(this.room, this.kind, meta && { id: meta[`${this.kind}Id`], realm: meta.realm }, method, path, body)
  }

  // ---------------------------------------------------------------- sending

  protected send(conn: Party.Connection, message: M | RunMessage<QuizCause | Extra>) {
    conn.send(JSON.stringify(message))
  }

  protected error(conn: Party.Connection, cause: QuizCause | Extra, questionId?: string, message?: string) {
    this.send(conn, { type: 'error', cause, message: message ?? this.causeText[cause], ...(questionId ? { question_id: questionId } : {}) })
  }

  /** An error, and null for the caller that stops there. */
  private refused(conn: Party.Connection, cause: QuizCause, questionId: string): null {
    this.error(conn, cause, questionId)
    return null
  }

  /** Serialized once, sent to every connection. */
  protected broadcast(message: M | RunMessage<QuizCause | Extra>) {
    broadcastTo(this.room, message)
  }
}
