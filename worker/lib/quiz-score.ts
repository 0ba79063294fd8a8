/**
 * Scoring (issue 14 "document the formula"), shared by the quiz party and the API: a correct answer scores
 * 500 + 500 × (time left ÷ question time), rounded — 1,000 for an instant answer, 500 at the deadline; a wrong or
 * missing answer scores 0. Time is the party's clock: from the question's publish to the answer's arrival.
 */
export const SCORE_BASE = 500
export function answerScore(correct: boolean, ms: number, durationMs: number): number {
  if (!correct) return 0
  const left = Math.max(0, Math.min(durationMs, durationMs - ms))
  return Math.round(SCORE_BASE + (SCORE_BASE * left) / durationMs)
}
