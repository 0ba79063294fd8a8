/**
 * The states of a student's answer (seed 001 §4 "Student task states", "Correction") as a small state machine: which
 * event moves an answer from which state to which, and the cause of the refusal otherwise (its §8 message).
 *
 * - draft: saved by the student, not delivered. submitted: delivered, in review (nobody corrected it yet).
 * - review: a teacher saved a correction without finishing it. pending: the teacher asked for adjustments; the
 *   student edits and delivers again. pending_agreement (check review): finalized with an AI comment; the student
 *   checks the review and sends an opinion on the AI comment. finished (concluded).
 */
export const ANSWER_STATES = ['draft', 'submitted', 'review', 'pending', 'pending_agreement', 'finished'] as const
export type AnswerState = (typeof ANSWER_STATES)[number]
/** Delivered sub-states (seed 001 §4): the task counts as delivered in these. */
export const DELIVERED_STATES: readonly AnswerState[] = ['submitted', 'review', 'pending_agreement', 'finished']
/** States a student may still change the answer in. */
export const EDITABLE_STATES: readonly AnswerState[] = ['draft', 'pending']

export const ANSWER_EVENTS = ['save_draft', 'deliver', 'save_correction', 'finalize', 'request_adjustments', 'send_opinion'] as const
export type AnswerEvent = (typeof ANSWER_EVENTS)[number]

export type Transition = { ok: true; to: AnswerState } | { ok: false; cause: TransitionCause }
export type TransitionCause = 'already_submitted' | 'not_delivered' | 'correction_finalized' | 'opinion_not_open'

/** `from` null: the student has no answer yet. `aiComment`: the answer has an AI comment (finalize then waits for the student's opinion). */
export function transition(from: AnswerState | null, event: AnswerEvent, options: { aiComment?: boolean } = {}): Transition {
  const ok = (to: AnswerState): Transition => ({ ok: true, to })
  const no = (cause: TransitionCause): Transition => ({ ok: false, cause })
  switch (event) {
    case 'save_draft':
      if (from === null || from === 'draft') return ok('draft')
      // Editing an answer sent back for adjustments keeps it pending until it is delivered again.
      if (from === 'pending') return ok('pending')
      return no('already_submitted')
    case 'deliver':
      return from === null || from === 'draft' || from === 'pending' ? ok('submitted') : no('already_submitted')
    case 'save_correction':
    case 'finalize':
    case 'request_adjustments': {
      if (from === null || from === 'draft' || from === 'pending') return no('not_delivered')
      if (from === 'pending_agreement' || from === 'finished') return no('correction_finalized')
      if (event === 'save_correction') return ok('review')
      if (event === 'request_adjustments') return ok('pending')
      return ok(options.aiComment ? 'pending_agreement' : 'finished')
    }
    case 'send_opinion':
      // The opinion concludes a review waiting for it; on a finished answer with an AI comment it is still welcome.
      if (from === 'pending_agreement' || (from === 'finished' && options.aiComment)) return ok('finished')
      return no('opinion_not_open')
  }
}
