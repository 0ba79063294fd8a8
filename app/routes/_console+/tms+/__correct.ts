import { INFORMATIVE_TYPES } from '#shared/schemas/tms/question-types'
import type { ScoredQuestion } from '#shared/schemas/tms/correction'

/** The questions a correction scores: every question but the informative blocks (info, section). */
export function scoredQuestions(questions: { id?: string; type: string; score?: number }[]): ScoredQuestion[] {
  return questions.filter((q) => q.id && !(INFORMATIVE_TYPES as readonly string[]).includes(q.type)).map((q) => ({ id: q.id ?? '', score: q.score ?? 0 }))
}
