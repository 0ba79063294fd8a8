/**
 * The correction screen's forms (issue 17, seed 001 §2 `tms/task/{taskId}/{answerId}/correct`): one schema per answer,
 * built from its questions, shared by the form (live checks in the browser) and its action; the API checks the same
 * rule again (`PUT /tms/answer/{id}/correction`).
 */
import * as v from 'valibot'
import { PaidConfirmation } from '../ai'
import { QUESTION_LIMITS } from './constants'

/** Whether a teacher's score is valid for a question worth `max`: from 0 to `max`, on the score step (0.01). */
export function validScore(max: number, score: number): boolean {
  const m = QUESTION_LIMITS.scoreMultiplier
  const scaled = Math.round(score * m)
  if (Math.abs(score * m - scaled) > 1e-6) return false
  return score >= 0 && scaled <= Math.round(max * m) && scaled % Math.round(QUESTION_LIMITS.scoreStep * m) === 0
}

const Text = (max: number) => v.pipe(v.string('validation.required'), v.maxLength(max, 'validation.max_length'))

/** What the correction form scores: a question's id and its score. */
export interface ScoredQuestion {
  id: string
  score: number
}

/** Save or finalize: a score and a comment per question, final considerations, the AI comment as edited. */
export function correctionSchema(questions: ScoredQuestion[]) {
  return v.object({
    action: v.optional(v.picklist(['save', 'finalize'], 'validation.picklist'), 'save'),
    scores: v.optional(
      v.object(
        Object.fromEntries(
          questions.map((q) => [
            q.id,
            v.optional(
              v.pipe(
                v.number('validation.number'),
                v.check((s) => validScore(q.score, s), 'answer.error.invalid_score'),
              ),
            ),
          ]),
        ),
      ),
      {},
    ),
    comments: v.optional(v.object(Object.fromEntries(questions.map((q) => [q.id, v.optional(Text(5000), '')]))), {}),
    final_considerations: v.optional(Text(10_000), ''),
    ai_comment: v.optional(Text(10_000)),
  })
}

/** The form's values before the check: a comment or consideration emptied is sent empty (cleared), not left out. */
export function correctionValues(questions: ScoredQuestion[], withAiComment: boolean) {
  return (values: Record<string, unknown>): Record<string, unknown> => {
    const comments = { ...((values.comments as Record<string, unknown> | undefined) ?? {}) }
    for (const q of questions) comments[q.id] ??= ''
    return {
      ...values,
      comments,
      final_considerations: values.final_considerations ?? '',
      ...(withAiComment ? { ai_comment: values.ai_comment ?? '' } : {}),
    }
  }
}

/** Request adjustments: what the student should change (the unsaved scores and texts are discarded, seed 001 §4). */
export const AdjustmentsInput = v.object({
  action: v.literal('request_adjustments'),
  comment: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(5000, 'validation.max_length')),
})

/** Ask the AI correction assistant for a revision, at the price the teacher confirmed (a paid operation). */
export const RevisionRequest = v.object({
  action: v.literal('ai_revision'),
  ...PaidConfirmation.entries,
})
