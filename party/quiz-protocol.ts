import * as v from 'valibot'

/**
 * Wire protocol of the quiz party (issue 14), imported by the party and its clients (the console's control screen,
 * the player page, the tests and the bench). Every client message is validated with these schemas; a refused one is
 * answered with an `error` event naming its cause, never dropped.
 *
 * Connecting: `wss://<host>/parties/quiz/quiz-<quizId>?ticket=<ticket>` — the ticket from
 * `POST /api/quiz/live/{id}/ticket` (signed-in users: `moderator` with quiz_quiz_control, else `player`) or
 * `…/guest` (a guest's nickname, on channels that allow guests). One room per running quiz.
 */

export const QUIZ_ROLES = ['moderator', 'player'] as const
export type QuizRole = (typeof QUIZ_ROLES)[number]
export const OPTIONS = ['A', 'B', 'C'] as const
export type Option = (typeof OPTIONS)[number]
/** Players listed in the leaderboard that every client gets; each player also gets their own rank. */
export const TOP_N = 10

const QuestionId = v.pipe(v.string(), v.minLength(1), v.maxLength(64))

export const QuizClientMessage = v.variant('type', [
  /** A player's answer to the open question; the first answer of a player to a question is the one that counts. */
  v.object({ type: v.literal('answer'), question_id: QuestionId, option: v.picklist(OPTIONS) }),
  /** A player who missed uses an extra life (within the extra-life timeout after the result). */
  v.object({ type: v.literal('life'), question_id: QuestionId }),
  /** Moderator: opens a pending question for answers. */
  v.object({ type: v.literal('publish'), question_id: QuestionId }),
  /** Moderator: shows the open question's result (its answers close if the deadline has not come). */
  v.object({ type: v.literal('result') }),
  /** Moderator: finishes the question showing its result; its results are written to D1. */
  v.object({ type: v.literal('close') }),
  /** Moderator: the quiz was finished (or canceled) in the console; everyone gets the final standings. */
  v.object({ type: v.literal('end') }),
])
export type QuizClientMessage = v.InferOutput<typeof QuizClientMessage>

export const QUIZ_CAUSES = [
  'invalid_message',
  'not_found',
  'unavailable',
  'forbidden',
  'not_active',
  'not_open',
  'wrong_question',
  'too_late',
  'eliminated',
  'no_life',
  'life_expired',
  'lives_disallowed',
  'state',
] as const
export type QuizCause = (typeof QUIZ_CAUSES)[number]

/** A question as players see it (the correct option only once the result is shown). */
export interface LiveQuestion {
  id: string
  position: number
  text: string
  options: Record<Option, string>
  lifes_disallowed: boolean
}

export type Phase = 'idle' | 'open' | 'result' | 'ended'

export interface Standing {
  score: number
  total_ms: number
  correct_count: number
  lives_left: number
  lives_used: number
  eliminated: boolean
  /** Until when (server ms) a missed player may use a life; null when they need none. */
  life_until: number | null
}

export interface LeaderRow {
  rank: number
  nick: string
  name: string
  score: number
  total_ms: number
  eliminated: boolean
}

export type QuizServerMessage =
  | {
      type: 'welcome'
      you: { nick: string; name: string; role: QuizRole }
      quiz: { id: string; name: string; question_duration: number; lifes_timeout: number; lives: number; question_count: number; status: string }
      phase: Phase
      question: LiveQuestion | null
      /** Server time of the deadline of the open question (ms since epoch), and the server's now. */
      deadline: number | null
      now: number
      correct: Option | null
      /** The player's own answer to the current question, when acknowledged. */
      answer: { question_id: string; option: Option; ms: number } | null
      standing: Standing | null
      rank: number | null
      leaderboard: LeaderRow[]
      players: number
      /** Moderators: the questions with their state, and the answers per option so far. */
      questions?: (LiveQuestion & { correct: Option; state: string })[]
      counts?: Record<Option, number>
    }
  | { type: 'question'; question: LiveQuestion; deadline: number; now: number }
  | { type: 'ack'; question_id: string; option: Option; ms: number }
  | { type: 'tally'; question_id: string; counts: Record<Option, number>; answered: number; players: number; now: number }
  | { type: 'result'; question_id: string; correct: Option; counts: Record<Option, number>; leaderboard: LeaderRow[]; life_until: number; now: number }
  | { type: 'standing'; question_id: string; correct: boolean | null; standing: Standing; rank: number }
  | { type: 'life'; question_id: string; standing: Standing }
  | { type: 'closed'; question_id: string; written: boolean }
  | { type: 'ended'; leaderboard: LeaderRow[] }
  | { type: 'presence'; players: number }
  | { type: 'error'; cause: QuizCause; message: string; question_id?: string }

// ——— Poll mode (room `poll-<pollId>`): the same party runs a poll's questions as votes ———

/** Seed 002 §9: what a poll may require a player to answer before voting. */
export const POLL_GENDERS = ['female', 'male', 'other', 'undisclosed'] as const
export const PollProfile = v.object({
  age: v.optional(
    v.pipe(v.number('validation.number'), v.integer('validation.integer'), v.minValue(1, 'validation.min_value'), v.maxValue(130, 'validation.max_value')),
  ),
  gender: v.optional(v.picklist(POLL_GENDERS, 'validation.picklist')),
  location: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.minLength(2, 'validation.min_length'), v.maxLength(80, 'validation.max_length'))),
})
export type PollProfile = v.InferOutput<typeof PollProfile>
export type PollRequirement = keyof PollProfile

export const PollClientMessage = v.variant('type', [
  /** A player's answers to the poll's requirements (age, gender, location), before their first vote. */
  v.object({ type: v.literal('profile'), profile: PollProfile }),
  /** A player's vote on the open question: the chosen options' indexes (a rating n is the index n - 1). */
  v.object({
    type: v.literal('vote'),
    question_id: QuestionId,
    choices: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(9))), v.minLength(1), v.maxLength(10)),
  }),
  v.object({ type: v.literal('publish'), question_id: QuestionId }),
  v.object({ type: v.literal('result') }),
  v.object({ type: v.literal('close') }),
  v.object({ type: v.literal('end') }),
])
export type PollClientMessage = v.InferOutput<typeof PollClientMessage>

/** A poll question as voters see it: its labels are the options, or 1…scale for a rating. */
export interface PollLiveQuestion {
  id: string
  position: number
  text: string
  type: 'single' | 'multiple' | 'rating'
  labels: string[]
  /** multiple: the most options one vote may pick (0: any). */
  max_choices: number
}

export type PollServerMessage =
  | {
      type: 'poll_welcome'
      you: { nick: string; name: string; role: QuizRole }
      poll: { id: string; name: string; type: string; question_duration: number; question_count: number; status: string; requires: PollRequirement[] }
      phase: Phase
      question: PollLiveQuestion | null
      deadline: number | null
      now: number
      /** The player's own vote on the current question, when acknowledged. */
      vote: { question_id: string; choices: number[] } | null
      /** The player's answers to the requirements (null until given). */
      profile: PollProfile | null
      players: number
      /** Moderators (and everyone once the result is shown): the votes per label so far. */
      counts: number[] | null
      voted: number
      /** Moderators: the poll's questions with their state. */
      questions?: (PollLiveQuestion & { state: string })[]
    }
  | { type: 'poll_question'; question: PollLiveQuestion; deadline: number; now: number }
  | { type: 'profile_ok'; profile: PollProfile }
  | { type: 'voted'; question_id: string; choices: number[] }
  | { type: 'poll_tally'; question_id: string; counts: number[]; voted: number; players: number; now: number }
  | { type: 'poll_result'; question_id: string; counts: number[]; voted: number }
  | { type: 'closed'; question_id: string; written: boolean }
  | { type: 'ended' }
  | { type: 'error'; cause: QuizCause | 'requirements' | 'invalid_choice'; message: string; question_id?: string; missing?: PollRequirement[] }
