import type { Phase, PollClientMessage, PollLiveQuestion, PollProfile, PollRequirement, PollServerMessage } from '../../../party/quiz-protocol'
import { type QuizLiveStatus, type RunMode, useQuizPartyRun, withState } from './use-quiz-live'

/**
 * The browser side of a poll's room of the quiz party (party/quiz-poll.ts), for the poll's control screen and the
 * player page: the welcome restores the open question, the time left, the player's vote and their requirement
 * answers; a vote not yet acknowledged is sent again after a reconnection (the party answers a resend with the first
 * vote). Times come from the server's deadline and clock.
 */
export interface PollLiveState {
  status: QuizLiveStatus
  cause: string | null
  role: 'moderator' | 'player' | null
  poll: Extract<PollServerMessage, { type: 'poll_welcome' }>['poll'] | null
  phase: Phase
  question: PollLiveQuestion | null
  deadline: number | null
  /** Server clock minus this clock (ms). */
  offset: number
  vote: { question_id: string; choices: number[] } | null
  /** Sent, not yet acknowledged. */
  sending: { question_id: string; choices: number[] } | null
  profile: PollProfile | null
  /** Requirements the party still asks for (after a refused vote or profile). */
  missing: PollRequirement[]
  players: number
  /** Votes per label: moderators as they arrive, everyone at the result. */
  counts: number[] | null
  voted: number
  questions: (PollLiveQuestion & { state: string })[]
  notice: string | null
}

const initial: PollLiveState = {
  status: 'connecting',
  cause: null,
  role: null,
  poll: null,
  phase: 'idle',
  question: null,
  deadline: null,
  offset: 0,
  vote: null,
  sending: null,
  profile: null,
  missing: [],
  players: 0,
  counts: null,
  voted: 0,
  questions: [],
  notice: null,
}

export const POLL_RUN: RunMode<PollLiveState, PollServerMessage, PollClientMessage, { question_id: string; choices: number[] }> = {
  party: 'poll',
  initial,
  pendingOf: (m) => (m.type === 'vote' ? { question_id: m.question_id, choices: m.choices } : null),
  errorState: (s, msg) => (msg.type === 'error' ? { missing: msg.missing ?? s.missing } : {}),
  welcome: { type: 'poll_welcome', acked: (m) => (m.type === 'poll_welcome' ? m.vote : null), resend: (p) => ({ type: 'vote', ...p }) },
  onMessage: (msg, { offset, setState, sending }) => {
    switch (msg.type) {
      case 'poll_welcome':
        return setState((s) => ({
          ...s,
          status: 'open',
          cause: null,
          role: msg.you.role,
          poll: msg.poll,
          phase: msg.phase,
          question: msg.question,
          deadline: msg.deadline,
          offset: offset ?? s.offset,
          vote: msg.vote,
          profile: msg.profile,
          players: msg.players,
          counts: msg.counts,
          voted: msg.voted,
          questions: msg.questions ?? s.questions,
        }))
      case 'poll_question':
        sending.current = null
        return setState((s) => ({
          ...s,
          phase: 'open',
          question: msg.question,
          deadline: msg.deadline,
          offset: offset ?? s.offset,
          vote: null,
          sending: null,
          counts: s.role === 'moderator' ? msg.question.labels.map(() => 0) : null,
          voted: 0,
          notice: null,
          questions: withState(s.questions, msg.question.id, 'published'),
        }))
      case 'profile_ok':
        return setState((s) => ({ ...s, profile: msg.profile, missing: [], notice: null }))
      case 'voted':
        if (sending.current?.question_id === msg.question_id) sending.current = null
        return setState((s) => ({ ...s, vote: { question_id: msg.question_id, choices: msg.choices }, sending: sending.current, notice: null }))
      case 'poll_tally':
        return setState((s) => ({ ...s, counts: msg.counts, voted: msg.voted, players: msg.players }))
      case 'poll_result':
        return setState((s) => ({
          ...s,
          phase: 'result',
          counts: msg.counts,
          voted: msg.voted,
          questions: withState(s.questions, msg.question_id, 'result'),
        }))
      case 'closed':
        return setState((s) => ({ ...s, phase: 'idle', questions: withState(s.questions, msg.question_id, 'finished') }))
      case 'ended':
        return setState((s) => ({ ...s, phase: 'ended' }))
    }
  },
}

/** `guest`: the nickname a guest votes with; null votes as the signed-in user (or moderates, with poll_poll_control). */
export function usePollLive(pollId: string, guest: string | null, enabled = true) {
  return useQuizPartyRun(POLL_RUN, pollId, guest, enabled)
}
