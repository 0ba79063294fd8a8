/**
 * The correction screen's forms (issue 17, seed 001 §2 `tms/task/{taskId}/{answerId}/correct`): one schema per answer,
 * built from its questions, shared by the form (live checks in the browser) and its action; the API checks the same
 * rule again (`PUT /tms/answer/{id}/correction`).
 */
import * as v from 'valibot'
import { PaidConfirmation } from '../ai'
import { ESSAY_ERROR_CATEGORIES, QUESTION_LIMITS } from './constants'

/** Whether a teacher's score is valid for a question worth `max`: from 0 to `max`, on the score step (0.01). */
export function validScore(max: number, score: number): boolean {
  const m = QUESTION_LIMITS.scoreMultiplier
  const scaled = Math.round(score * m)
  if (Math.abs(score * m - scaled) > 1e-6) return false
  return score >= 0 && scaled <= Math.round(max * m) && scaled % Math.round(QUESTION_LIMITS.scoreStep * m) === 0
}

const Text = (max: number) => v.pipe(v.string('validation.required'), v.maxLength(max, 'validation.max_length'))

/** What the correction form scores: a question's id and its score; an essay its assessed skills, a written answer its marks. */
export interface ScoredQuestion {
  id: string
  score: number
  /** essay: the assessed skills the teacher grades (out of 10). */
  skills?: string[]
  /** text, text_ai, essay: the teacher may mark errors in the student's text. */
  markable?: boolean
}

/** The essay error categories (seed 001 §3), as marks name them. */
export const MARK_CATEGORIES = Object.keys(ESSAY_ERROR_CATEGORIES).map((k) => k.toLowerCase()) as [string, ...string[]]

/** A skill's grade: out of 10, in steps of 0.1. */
export const SkillGrade = v.pipe(
  v.number('validation.number'),
  v.minValue(0, 'validation.min_value'),
  v.maxValue(10, 'validation.max_value'),
  v.check((g) => Math.abs(g * 10 - Math.round(g * 10)) < 1e-6, 'answer.error.invalid_grade'),
)

/** A mark the teacher adds by hand (a custom error, seed 001 §3 Correction): category, the student's words, why. */
export const TeacherMark = v.object({
  category: v.picklist(MARK_CATEGORIES, 'validation.picklist'),
  excerpt: v.pipe(v.string('validation.required'), v.trim(), v.minLength(1, 'validation.required'), v.maxLength(300, 'validation.max_length')),
  explanation: v.optional(v.pipe(v.string('validation.required'), v.trim(), v.maxLength(600, 'validation.max_length')), ''),
})
export type TeacherMark = v.InferOutput<typeof TeacherMark>
export const TeacherMarks = v.pipe(v.array(TeacherMark), v.maxLength(100, 'validation.max_items'))

/** The weighted mean of an essay's graded skills (out of 10) times its score, on the score step (the AI revision's rule too). */
export function skillsScore(skills: { id: string; weight: number }[], grades: Record<string, number>, max: number): number | null {
  const graded = skills.flatMap((s) => (grades[s.id] === undefined ? [] : [{ w: s.weight > 0 ? s.weight : 1, g: grades[s.id] }]))
  if (!graded.length) return null
  const mean = graded.reduce((n, x) => n + x.w * x.g, 0) / graded.reduce((n, x) => n + x.w, 0)
  const m = QUESTION_LIMITS.scoreMultiplier
  const step = Math.round(QUESTION_LIMITS.scoreStep * m)
  const top = Math.floor(Math.round(max * m) / step) * step
  return Math.min(top, Math.max(0, Math.round(((mean / 10) * max * m) / step) * step)) / m
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
    skill_grades: v.optional(
      v.object(
        Object.fromEntries(
          questions
            .filter((q) => q.skills?.length)
            .map((q) => [q.id, v.optional(v.object(Object.fromEntries(q.skills!.map((k) => [k, v.optional(SkillGrade)]))), {})]),
        ),
      ),
      {},
    ),
    marks: v.optional(v.object(Object.fromEntries(questions.filter((q) => q.markable).map((q) => [q.id, v.optional(TeacherMarks, [])]))), {}),
    final_considerations: v.optional(Text(10_000), ''),
    ai_comment: v.optional(Text(10_000)),
  })
}

/** The form's values before the check: a comment or consideration emptied is sent empty (cleared), not left out. */
export function correctionValues(questions: ScoredQuestion[], withAiComment: boolean) {
  return (values: Record<string, unknown>): Record<string, unknown> => {
    const comments = { ...((values.comments as Record<string, unknown> | undefined) ?? {}) }
    for (const q of questions) comments[q.id] ??= ''
    // Every markable question's marks are sent, none left meaning none (the form holds the whole list).
    const marks = { ...((values.marks as Record<string, unknown> | undefined) ?? {}) }
    for (const q of questions) if (q.markable) marks[q.id] ??= []
    return {
      ...values,
      comments,
      marks,
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
