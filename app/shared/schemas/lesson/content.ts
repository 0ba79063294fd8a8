/**
 * Lesson content kinds, content-configuration options and the §9 lengths (seed 001 §3 "Lesson and lesson content",
 * "Content config", §9). Shared by the lesson editor, the content configurations, the generator and its tests.
 */

/** Content languages of a lesson (seed 001 §1); default pt-BR. */
export const LESSON_LANGUAGES = ['pt-BR', 'pt-PT', 'en-US', 'es-ES', 'fr-FR', 'it-IT', 'de-DE'] as const
export type LessonLanguage = (typeof LESSON_LANGUAGES)[number]

/** What a lesson holds (seed 001 §3), in the order the editor and the generator's progress list them. */
export const LESSON_CONTENT_KINDS = ['summary', 'class_plan', 'handout', 'slide', 'narrative', 'video', 'persona', 'task', 'question_pairs'] as const
export type LessonContentKind = (typeof LESSON_CONTENT_KINDS)[number]

/** Content-configuration options (seed 001 §3 "Content config"). */
export const CONFIG_STYLES = ['engaging', 'formal', 'narrative', 'storytelling', 'practical', 'academic'] as const
export const CONFIG_LENGTHS = ['short', 'medium', 'long', 'very_long'] as const
export const CONFIG_EXAMPLES = ['daily_life', 'scientific', 'historical', 'pop_culture', 'none'] as const
export const SUMMARY_DEPTHS = ['concise', 'standard', 'detailed', 'in_depth'] as const
export const SUMMARY_FOCUSES = ['definitions', 'formulas', 'applications', 'historical_context', 'critical_thinking'] as const
export const CLASS_TYPES = ['lecture', 'workshop', 'lab_session', 'group_work'] as const
export const GROUP_SIZES = ['alone', 'pairs', 'small_groups', 'whole_class'] as const
export const TRANSITIONS = ['smooth', 'independent'] as const
export type ConfigLength = (typeof CONFIG_LENGTHS)[number]
export type SummaryDepth = (typeof SUMMARY_DEPTHS)[number]

/** Seed 001 §9: class plan duration 15 to 180 minutes. */
export const CLASS_PLAN_MINUTES = { min: 15, max: 180 } as const

/** Seed 001 §9: narration words per length, for the cover (first slide) and the other slides. */
export const NARRATION_WORDS: Record<'cover' | 'slide', Record<ConfigLength, readonly [number, number]>> = {
  cover: { short: [40, 60], medium: [70, 100], long: [110, 140], very_long: [150, 200] },
  slide: { short: [70, 100], medium: [110, 140], long: [160, 200], very_long: [220, 280] },
}

/** Seed 001 §9: summary words and paragraphs per depth (in-depth: 5 or more paragraphs). */
export const SUMMARY_SHAPE: Record<SummaryDepth, { words: readonly [number, number]; paragraphs: readonly [number, number] }> = {
  concise: { words: [100, 150], paragraphs: [1, 1] },
  standard: { words: [200, 250], paragraphs: [2, 2] },
  detailed: { words: [350, 450], paragraphs: [3, 4] },
  in_depth: { words: [600, 800], paragraphs: [5, 12] },
}

/** Words of a text as the length rules count them: runs of letters or digits (apostrophes and hyphens inside a word). */
export function wordCount(text: string): number {
  return text.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0
}
