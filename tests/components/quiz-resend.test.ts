import { describe, expect, it } from 'vitest'
import type { PollServerMessage, QuizServerMessage } from '../../party/quiz-protocol'
import { POLL_RUN } from '~/components/quiz/use-poll-live'
import { QUIZ_RUN, welcomeResend } from '~/components/quiz/use-quiz-live'

/**
 * An answer or vote sent but not acknowledged before the connection dropped goes again after the next welcome, unless
 * the welcome says the party already has it (the party answers a resend with the first acknowledgement).
 */
const quizWelcome = (answer: { question_id: string; option: 'A' | 'B' | 'C'; ms: number } | null) =>
  ({ type: 'welcome', answer }) as unknown as QuizServerMessage
const pollWelcome = (vote: { question_id: string; choices: number[] } | null) => ({ type: 'poll_welcome', vote }) as unknown as PollServerMessage

describe('the resend after a welcome', () => {
  it('sends a quiz answer again unless the welcome acknowledges it', () => {
    const pending = { question_id: 'q2', option: 'B' as const }
    expect(welcomeResend(QUIZ_RUN, quizWelcome(null), pending)).toEqual({ type: 'answer', question_id: 'q2', option: 'B' })
    // An answer to an earlier question is not this one's acknowledgement.
    expect(welcomeResend(QUIZ_RUN, quizWelcome({ question_id: 'q1', option: 'A', ms: 900 }), pending)).toEqual({
      type: 'answer',
      question_id: 'q2',
      option: 'B',
    })
    expect(welcomeResend(QUIZ_RUN, quizWelcome({ question_id: 'q2', option: 'B', ms: 900 }), pending)).toBeNull()
    expect(welcomeResend(QUIZ_RUN, quizWelcome(null), null)).toBeNull()
    // Only the welcome: another message never sends anything again.
    expect(welcomeResend(QUIZ_RUN, { type: 'tally', question_id: 'q2', counts: { A: 0, B: 0, C: 0 }, answered: 0, players: 1, now: 0 }, pending)).toBeNull()
  })

  it('sends a poll vote again unless the welcome acknowledges it', () => {
    const pending = { question_id: 'p2', choices: [0, 2] }
    expect(welcomeResend(POLL_RUN, pollWelcome(null), pending)).toEqual({ type: 'vote', question_id: 'p2', choices: [0, 2] })
    expect(welcomeResend(POLL_RUN, pollWelcome({ question_id: 'p1', choices: [1] }), pending)).toEqual({ type: 'vote', question_id: 'p2', choices: [0, 2] })
    expect(welcomeResend(POLL_RUN, pollWelcome({ question_id: 'p2', choices: [0, 2] }), pending)).toBeNull()
    // The quiz's welcome is not the poll's.
    expect(welcomeResend(POLL_RUN, { type: 'ended' }, pending)).toBeNull()
  })
})
