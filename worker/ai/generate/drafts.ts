import * as v from 'valibot'

/**
 * What a text engine answers for each generated content (the local engine's templates and a model's JSON meet the
 * same schema); the generator then enforces the §9 lengths and renders the lesson's contents from these drafts.
 */
const Text = (max: number) => v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(max))

export const SummaryDraft = v.object({ paragraphs: v.pipe(v.array(Text(6000)), v.minLength(1), v.maxLength(20)) })
export type SummaryDraft = v.InferOutput<typeof SummaryDraft>

export const ClassPlanDraft = v.object({
  phases: v.pipe(
    v.array(v.object({ title: Text(200), minutes: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(180)), activity: Text(2000) })),
    v.minLength(2),
    v.maxLength(20),
  ),
  materials: v.optional(v.pipe(v.string(), v.maxLength(1000)), ''),
  homework: v.optional(v.pipe(v.string(), v.maxLength(2000)), ''),
})
export type ClassPlanDraft = v.InferOutput<typeof ClassPlanDraft>

export const HandoutDraft = v.object({
  sections: v.pipe(
    v.array(v.object({ title: Text(200), paragraphs: v.pipe(v.array(Text(6000)), v.minLength(1), v.maxLength(30)) })),
    v.minLength(1),
    v.maxLength(40),
  ),
  key_terms: v.optional(v.pipe(v.array(Text(80)), v.maxLength(40)), []),
})
export type HandoutDraft = v.InferOutput<typeof HandoutDraft>

export const SlidesDraft = v.object({
  slides: v.pipe(v.array(v.object({ title: Text(200), bullets: v.pipe(v.array(Text(400)), v.maxLength(8)) })), v.minLength(2), v.maxLength(40)),
})
export type SlidesDraft = v.InferOutput<typeof SlidesDraft>

export const NarrationDraft = v.object({ narrations: v.pipe(v.array(Text(3000)), v.minLength(1), v.maxLength(40)) })
export type NarrationDraft = v.InferOutput<typeof NarrationDraft>

export const PairsDraft = v.object({
  pairs: v.pipe(v.array(v.object({ question: Text(1000), answer: Text(4000) })), v.minLength(1), v.maxLength(30)),
})
export type PairsDraft = v.InferOutput<typeof PairsDraft>

export const DraftQuestion = v.variant('type', [
  /** A sentence with its gaps as [[word]] (a gap at most 5 words, at least 2 gaps) and wrong words to choose from. */
  v.object({ type: v.literal('fill_words'), sentence: Text(2000), incorrect: v.pipe(v.array(Text(100)), v.maxLength(10)) }),
  v.object({ type: v.literal('true_false'), claim: Text(1000), answer: v.boolean() }),
  v.object({
    type: v.literal('single'),
    statement: Text(1000),
    options: v.pipe(v.array(Text(300)), v.minLength(2), v.maxLength(6)),
    correct: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
])
export type DraftQuestion = v.InferOutput<typeof DraftQuestion>
export const TaskDraft = v.object({ questions: v.pipe(v.array(DraftQuestion), v.minLength(1), v.maxLength(60)) })
export type TaskDraft = v.InferOutput<typeof TaskDraft>
