import type * as Party from 'partykit/server'
import * as v from 'valibot'
import type { QuizRole } from './quiz-protocol'
import { signTicket } from './ticket'

/**
 * What the quiz party's two modes share (party/quiz.ts runs a quiz, party/quiz-poll.ts a poll): the connection
 * state, the client message's parsing, the player count, sending, the moderators' throttled tally, the realm API
 * call with the party's service ticket, the cached read of the run's state and the retried write of closed
 * questions' results. What differs (scores and lives, votes and requirements) stays in each mode.
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
