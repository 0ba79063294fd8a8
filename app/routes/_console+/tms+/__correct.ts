import { INFORMATIVE_TYPES } from '#shared/schemas/tms/question-types'
import type { ScoredQuestion } from '#shared/schemas/tms/correction'

/**
 * The questions a correction scores: every question but the informative blocks (info, section); an essay with its
 * assessed skills (`essaySkills`: per question id), written answers markable.
 */
export function scoredQuestions(
  questions: { id?: string; type: string; score?: number }[],
  essaySkills: Record<string, { id: string }[]> = {},
): ScoredQuestion[] {
  return questions
    .filter((q) => q.id && !(INFORMATIVE_TYPES as readonly string[]).includes(q.type))
    .map((q) => ({
      id: q.id ?? '',
      score: q.score ?? 0,
      skills: (essaySkills[q.id ?? ''] ?? []).map((k) => k.id),
      markable: q.type === 'text' || q.type === 'text_ai' || q.type === 'essay',
    }))
}
