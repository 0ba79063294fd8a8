import type { SourceRef } from '#shared/schemas/ai'
import type { Turn, Usage } from './types'

/**
 * Prompt pieces every model adapter shares: the grounding (numbered passages the answer must come from and cite),
 * the JSON instruction of structured output, and the retry's feedback.
 */
export function groundedSystem(system: string | undefined, sources: SourceRef[]): string {
  const base = system?.trim() || 'You are a helpful assistant.'
  if (!sources.length) return base
  const passages = sources.map((s, i) => `[${i + 1}] (${s.title}) ${s.quote}`).join('\n')
  return `${base}\n\nAnswer only from these passages and cite them by number, like [1]. If they do not answer the question, say you do not know.\n${passages}`
}

export function shapeInstruction(shape: string): string {
  return `Answer with one JSON object only, no prose and no code fence. The object: ${shape}`
}

export function validationFeedback(issues: string[]): string {
  return `That JSON does not fit what was asked:\n${issues.slice(0, 10).join('\n')}\nAnswer again with the corrected JSON object only.`
}

/** Tokens an image is counted as when a provider reports no usage (a low-detail image costs a few hundred). */
export const IMAGE_TOKENS = 800

/** Characters of a turn's text (its images counted as `IMAGE_TOKENS` tokens each). */
export function turnChars(m: Turn): number {
  if (typeof m.content === 'string') return m.content.length
  return m.content.reduce((n, p) => n + (p.type === 'text' ? p.text.length : IMAGE_TOKENS * 4), 0)
}

/** About four characters a token: used when a provider reports no usage, so the cap still counts the call. */
export function estimateUsage(messages: Turn[], answer: string): Usage {
  const prompt = Math.ceil(messages.reduce((n, m) => n + turnChars(m), 0) / 4)
  const completion = Math.ceil(answer.length / 4)
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
}
