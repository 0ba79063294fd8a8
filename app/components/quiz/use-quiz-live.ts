import PartySocket from 'partysocket'
import { type Dispatch, type MutableRefObject, type SetStateAction, useCallback, useEffect, useRef, useState } from 'react'
import type { LeaderRow, LiveQuestion, Option, Phase, QuizCause, QuizClientMessage, QuizServerMessage, Standing } from '../../../party/quiz-protocol'
import { TicketError, ticketQuery } from '../live/party-ticket'

/**
 * The browser side of the quiz party (party/quiz.ts), for the console's control screen and the player page: a fresh
 * ticket from `/party/ticket?party=quiz` before every (re)connection; the welcome restores the current question, the
 * time left, the player's answer, score and lives; an answer not yet acknowledged is sent again after a reconnection
 * (the party answers a resend with the first acknowledgement). Times come from the server's deadline and clock.
 */
export type QuizLiveStatus = 'connecting' | 'open' | 'reconnecting' | 'refused' | 'signin'

export interface QuizLiveState {
  status: QuizLiveStatus
  cause: string | null
  role: 'moderator' | 'player' | null
  quiz: Extract<QuizServerMessage, { type: 'welcome' }>['quiz'] | null
  phase: Phase
  question: LiveQuestion | null
  deadline: number | null
  /** Server clock minus this clock (ms). */
  offset: number
  correct: Option | null
  answer: { question_id: string; option: Option; ms: number } | null
  /** Sent, not yet acknowledged. */
  sending: { question_id: string; option: Option } | null
  standing: Standing | null
  rank: number | null
  lastCorrect: boolean | null
  leaderboard: LeaderRow[]
  players: number
  counts: Record<Option, number>
  answered: number
  questions: (LiveQuestion & { correct: Option; state: string })[]
  notice: QuizCause | null
  lifeUntil: number | null
}

const initial: QuizLiveState = {
  status: 'connecting',
  cause: null,
  role: null,
  quiz: null,
  phase: 'idle',
  question: null,
  deadline: null,
  offset: 0,
  correct: null,
  answer: null,
  sending: null,
  standing: null,
  rank: null,
  lastCorrect: null,
  leaderboard: [],
  players: 0,
  counts: { A: 0, B: 0, C: 0 },
  answered: 0,
  questions: [],
  notice: null,
  lifeUntil: null,
}

async function fetchTicket(
  party: 'quiz' | 'poll',
  id: string,
  guest: string | null,
  resume: string | null,
): Promise<{ ticket: string; host: string; room: string; resume?: string }> {
  const q = new URLSearchParams({ party, room: id })
  if (guest !== null) q.set('guest', guest)
  // A guest rejoins as the same player with the first join's resume token.
  if (guest !== null && resume) q.set('resume', resume)
  const res = await fetch(`/party/ticket?${q}`, { headers: { accept: 'application/json' } })
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { errors?: { cause: string }[] } | null
    throw new TicketError(res.status, body?.errors?.[0]?.cause ?? 'unavailable')
  }
  return res.json()
}

export interface QuizPartyHandlers<M> {
  onMessage: (message: M, socket: PartySocket) => void
  /** The ticket was refused: 'signin' (no session), else its cause. */
  onRefused: (status: 'signin' | 'refused', cause: string) => void
  onDrop: () => void
}

/**
 * Connects to a quiz's or poll's room of the quiz party (`party`: which ticket to ask `/party/ticket` for), with a
 * fresh ticket before every (re)connection and a guest's resume token kept for their rejoins. Answers `stop`.
 */
export function openQuizParty<M>(party: 'quiz' | 'poll', id: string, guest: string | null, on: QuizPartyHandlers<M>) {
  let stopped = false
  let ws: PartySocket | null = null
  let resume: string | null = null
  const ticketFor = async () => {
    const answer = await fetchTicket(party, id, guest, resume)
    resume = answer.resume ?? resume
    return answer
  }
  const refuse = (err: unknown) => {
    if (stopped) return
    stopped = true
    ws?.close()
    if (err instanceof TicketError && err.status === 401) on.onRefused('signin', 'signin')
    else on.onRefused('refused', err instanceof TicketError ? err.cause : 'unavailable')
  }
  const holder: { socket: PartySocket | null; stop: () => void } = {
    socket: null,
    stop: () => {
      stopped = true
      ws?.close()
    },
  }
  ticketFor()
    .then((first) => {
      if (stopped) return
      ws = new PartySocket({
        host: first.host,
        party: 'quiz',
        room: first.room,
        maxRetries: 50,
        // A fresh ticket on each reconnection; quizzes and polls send no `since`.
        query: ticketQuery(
          first.ticket,
          async () => (await ticketFor()).ticket,
          refuse,
          () => null,
        ),
      })
      holder.socket = ws
      const socket = ws
      ws.addEventListener('close', () => {
        if (!stopped) on.onDrop()
      })
      ws.addEventListener('message', (event) => {
        if (!stopped) on.onMessage(JSON.parse(String(event.data)) as M, socket)
      })
    })
    .catch(refuse)
  return holder
}

/** A run's questions with one question's state changed (published, result, finished), quiz and poll alike. */
export const withState = <Q extends { id: string; state: string }>(questions: Q[], id: string, state: string): Q[] =>
  questions.map((q) => (q.id === id ? { ...q, state } : q))

/** What the state of every run (a quiz's or a poll's) has; `P` is a sent answer or vote not yet acknowledged. */
interface RunState<P> {
  status: QuizLiveStatus
  cause: string | null
  sending: P | null
  notice: string | null
}

/** What a mode's message handler may use: the server's clock offset, the state and the pending send. */
export interface RunContext<S, P> {
  /** Server clock minus this clock (ms), when the message says the server's time. */
  offset: number | undefined
  setState: Dispatch<SetStateAction<S>>
  sending: MutableRefObject<P | null>
}

/** A mode of the quiz party as the browser runs it (a module constant: the hook restarts when it changes). */
export interface RunMode<S, M, C, P> {
  party: 'quiz' | 'poll'
  initial: S
  /** Every message but `error` into the state. */
  onMessage: (message: M, run: RunContext<S, P>) => void
  /** The mode's own fields of an `error` notice. */
  errorState?: (state: S, message: M) => Partial<S>
  /** What a sent message leaves pending until acknowledged (an answer, a vote), or null. */
  pendingOf: (message: C) => P | null
  /**
   * The welcome (`type`) and what it says was acknowledged (`acked`): a pending send it does not acknowledge goes
   * again as `resend` makes it (the party answers a resend with the first acknowledgement, so it counts once).
   */
  welcome: { type: string; acked: (message: M) => { question_id: string } | null | undefined; resend: (pending: P) => C }
}

/** What goes again after `message` when it is the mode's welcome and does not acknowledge the `pending` send, else null. */
export function welcomeResend<M extends { type: string }, C, P extends { question_id: string }>(
  mode: Pick<RunMode<unknown, M, C, P>, 'welcome'>,
  message: M,
  pending: P | null,
): C | null {
  if (message.type !== mode.welcome.type || !pending || mode.welcome.acked(message)?.question_id === pending.question_id) return null
  return mode.welcome.resend(pending)
}

/**
 * A quiz's or poll's room as React state (`initial` on every start): the ticket's refusal, a dropped connection,
 * the mode's messages; an `error` while (re)connecting is the party's refusal, else a notice (and the pending send
 * it names is pending no more). `send` keeps what `pendingOf` says until the party acknowledges it.
 */
export function useQuizPartyRun<S extends RunState<P>, M extends { type: string }, C, P extends { question_id: string }>(
  mode: RunMode<S, M, C, P>,
  id: string,
  guest: string | null,
  enabled: boolean,
) {
  const [state, setState] = useState<S>(mode.initial)
  const socket = useRef<{ socket: PartySocket | null } | null>(null)
  const sending = useRef<P | null>(null)

  useEffect(() => {
    if (!enabled) return
    setState(mode.initial)
    const party = openQuizParty<M>(mode.party, id, guest, {
      onRefused: (status, cause) => setState((s) => ({ ...s, status, cause: status === 'refused' ? cause : s.cause })),
      onDrop: () => setState((s) => ({ ...s, status: s.status === 'connecting' ? 'connecting' : 'reconnecting' })),
      onMessage: (msg, ws) => {
        const now = (msg as { now?: unknown }).now
        if (msg.type !== 'error') {
          mode.onMessage(msg, { offset: typeof now === 'number' ? now - Date.now() : undefined, setState, sending })
          const again = welcomeResend(mode, msg, sending.current)
          if (again) ws.send(JSON.stringify(again))
          return
        }
        const error = msg as unknown as { cause: string; question_id?: string }
        if (error.question_id && sending.current?.question_id === error.question_id) sending.current = null
        setState((s) => {
          if (s.status === 'connecting' || s.status === 'reconnecting') {
            party.stop()
            return { ...s, status: 'refused', cause: error.cause }
          }
          return { ...s, sending: sending.current, notice: error.cause, ...mode.errorState?.(s, msg) }
        })
      },
    })
    socket.current = party
    return () => {
      party.stop()
      socket.current = null
    }
  }, [mode, id, guest, enabled])

  const send = useCallback(
    (message: C) => {
      const pending = mode.pendingOf(message)
      if (pending) {
        sending.current = pending
        setState((s) => ({ ...s, sending: sending.current }))
      }
      socket.current?.socket?.send(JSON.stringify(message))
    },
    [mode],
  )

  return { state, send }
}

export const QUIZ_RUN: RunMode<QuizLiveState, QuizServerMessage, QuizClientMessage, { question_id: string; option: Option }> = {
  party: 'quiz',
  initial,
  pendingOf: (m) => (m.type === 'answer' ? { question_id: m.question_id, option: m.option } : null),
  welcome: { type: 'welcome', acked: (m) => (m.type === 'welcome' ? m.answer : null), resend: (p) => ({ type: 'answer', ...p }) },
  onMessage: (msg, { offset, setState, sending }) => {
    switch (msg.type) {
      case 'welcome':
        return setState((s) => ({
          ...s,
          status: 'open',
          cause: null,
          role: msg.you.role,
          quiz: msg.quiz,
          phase: msg.phase,
          question: msg.question,
          deadline: msg.deadline,
          offset: offset ?? s.offset,
          correct: msg.correct,
          answer: msg.answer,
          standing: msg.standing,
          rank: msg.rank,
          leaderboard: msg.leaderboard,
          players: msg.players,
          questions: msg.questions ?? s.questions,
          counts: msg.counts ?? s.counts,
          lifeUntil: msg.standing?.life_until ?? null,
        }))
      case 'question':
        sending.current = null
        return setState((s) => ({
          ...s,
          phase: 'open',
          question: msg.question,
          deadline: msg.deadline,
          offset: offset ?? s.offset,
          correct: null,
          answer: null,
          sending: null,
          lastCorrect: null,
          counts: { A: 0, B: 0, C: 0 },
          answered: 0,
          notice: null,
          lifeUntil: null,
          questions: withState(s.questions, msg.question.id, 'published'),
        }))
      case 'ack':
        if (sending.current?.question_id === msg.question_id) sending.current = null
        return setState((s) => ({ ...s, answer: { question_id: msg.question_id, option: msg.option, ms: msg.ms }, sending: sending.current }))
      case 'tally':
        return setState((s) => ({ ...s, counts: msg.counts, answered: msg.answered, players: msg.players }))
      case 'result':
        return setState((s) => ({
          ...s,
          phase: 'result',
          correct: msg.correct,
          counts: msg.counts,
          leaderboard: msg.leaderboard,
          lifeUntil: null,
          questions: withState(s.questions, msg.question_id, 'result'),
        }))
      case 'standing':
        return setState((s) => ({ ...s, standing: msg.standing, rank: msg.rank, lastCorrect: msg.correct, lifeUntil: msg.standing.life_until }))
      case 'life':
        return setState((s) => ({ ...s, standing: msg.standing, lifeUntil: null }))
      case 'closed':
        return setState((s) => ({
          ...s,
          phase: 'idle',
          questions: withState(s.questions, msg.question_id, 'finished'),
        }))
      case 'ended':
        return setState((s) => ({ ...s, phase: 'ended', leaderboard: msg.leaderboard }))
      case 'presence':
        return setState((s) => ({ ...s, players: msg.players }))
    }
  },
}

/** `guest`: the nickname a guest plays with; null plays as the signed-in user (or moderates, with quiz_quiz_control). */
export function useQuizLive(quizId: string, guest: string | null, enabled = true) {
  return useQuizPartyRun(QUIZ_RUN, quizId, guest, enabled)
}

/** Whole seconds left until `deadline` on the server's clock (0 when past or none). */
export function secondsLeft(deadline: number | null, offset: number, now = Date.now()): number {
  if (deadline === null) return 0
  return Math.max(0, Math.ceil((deadline - (now + offset)) / 1000))
}

/** Re-renders every `ms` while `active` (a countdown). */
export function useTick(active: boolean, ms = 250): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const id = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(id)
  }, [active, ms])
  return now
}
