import { formulaProblem, formulasOf, plainText } from '../../rich-text'
import { isLocalPath, isWebUrl } from '../common'
import { parseVideoUrl } from '../../../lib/video'
import type { QuestionLimits } from './constants'
import type { QuestionTypeDeclaration } from './question-types'
import { parsePhrase, sameAnswer, sentenceProblem, wordsOf } from './phrase'

/**
 * The rules of seed 001 §5 "Question", one message key each (`validation.question.<rule>`), reported at the path
 * of the field concerned so the editor shows it next to that field and the API returns it in the envelope.
 */
export type Key = string | number
export type Report = (rule: string, path: Key[]) => void

/** The fields every question has, as the structural schema leaves them (defaults applied). */
export interface QuestionCore {
  /** One of QUESTION_TYPES (a plain string here: the types' declarations refer to these rules). */
  type: string
  statement: string
  score: number
  required: boolean
  shuffle: boolean
  partial_score: boolean
  categories: string[]
  media_type: string
  media_url: string
  comment: string
}

export interface ChoiceOption {
  id?: string
  statement: string
  answer: boolean
  media_type: string
  media_url: string
}

/** A media link: http(s) or a file of this console (`/files/...`). */
export const isMediaUrl = (url: string) => {
  const u = url.trim()
  return isWebUrl(u) || (u.startsWith('/files/') && u.length > 7 && isLocalPath(u))
}

function richRules(html: string, field: Key[], report: Report) {
  for (const f of formulasOf(html)) {
    const problem = formulaProblem(f.latex)
    if (problem) return report(problem.problem, field)
  }
}

/** Media of a question or option: a URL needs a type; a type needs a URL of at least 3 characters; videos from a video site. */
export function mediaRules(media_type: string, media_url: string, at: Key[], report: Report, limits: QuestionLimits, needsUrl = true) {
  const url = media_url.trim()
  if (url && !media_type) return report('media_type_required', [...at, 'media_type'])
  if (!media_type || media_type === 'text') return
  if (!url) return needsUrl ? report('media_url_required', [...at, 'media_url']) : undefined
  if (url.length < limits.mediaLinkMin) return report('media_url_min', [...at, 'media_url'])
  if (!isMediaUrl(url)) return report('media_url_invalid', [...at, 'media_url'])
  if (media_type === 'video' && !parseVideoUrl(url)) report('video_url', [...at, 'media_url'])
}

/** Not negative, within min and max, a multiple of the step compared in thousandths. */
export function scoreRules(score: number, report: Report, limits: QuestionLimits) {
  if (score < 0) return report('score_negative', ['score'])
  if (score < limits.scoreMin) return report('score_min', ['score'])
  if (score > limits.scoreMax) return report('score_max', ['score'])
  const m = limits.scoreMultiplier
  const scaled = score * m
  const step = Math.round(limits.scoreStep * m)
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6 || Math.round(scaled) % step !== 0) report('score_step', ['score'])
}

/**
 * Rules every question type shares, under what its type declares (question-types.ts): how it is scored, whether it
 * shuffles or scores partly, and its own media kinds (a type that declares them needs one).
 */
export function commonRules(
  q: QuestionCore,
  kind: Pick<QuestionTypeDeclaration, 'scoring' | 'shuffle' | 'partialScore' | 'media'>,
  report: Report,
  limits: QuestionLimits,
) {
  if (plainText(q.statement).length < limits.statementMin) report('statement_min', ['statement'])
  richRules(q.statement, ['statement'], report)
  richRules(q.comment, ['comment'], report)
  if (kind.scoring === 'none') {
    if (q.score !== 0) report('informative_score', ['score'])
    if (q.required) report('informative_required', ['required'])
    if (q.categories.length) report('informative_categories', ['categories'])
  } else if (kind.scoring === 'ai') {
    if (q.score !== 0) report('text_ai_score', ['score'])
  } else scoreRules(q.score, report, limits)
  if (q.shuffle && !kind.shuffle) report('shuffle_not_allowed', ['shuffle'])
  if (q.partial_score && !kind.partialScore) report('partial_score_not_allowed', ['partial_score'])
  if (new Set(q.categories).size !== q.categories.length) report('category_duplicate', ['categories'])
  if (kind.media) {
    if (!q.media_type) report('media_type_required', ['media_type'])
    else mediaRules(q.media_type, q.media_url, [], report, limits)
  } else mediaRules(q.media_type, q.media_url, [], report, limits)
}

/** Rules of the choice types (single, multi, true_false). */
export function choiceRules(type: string, options: ChoiceOption[], report: Report, limits: QuestionLimits) {
  if (options.length < limits.choiceOptionsMin) report('options_min', ['options'])
  options.forEach((o, i) => {
    if (plainText(o.statement).length < limits.optionStatementMin && !o.media_url.trim()) report('option_statement_min', ['options', i, 'statement'])
    richRules(o.statement, ['options', i, 'statement'], report)
    mediaRules(o.media_type, o.media_url, ['options', i], report, limits)
  })
  const correct = options.filter((o) => o.answer).length
  if (type === 'multi' ? correct < 1 : correct !== 1) report(type === 'multi' ? 'multi_correct' : 'single_correct', ['options'])
}

export function textCountRules(o: { min_text_count: number; max_text_count: number }, report: Report, limits: QuestionLimits) {
  if (o.min_text_count < limits.textCountMin) report('text_count_min', ['options', 'min_text_count'])
  if (o.max_text_count > limits.textCountMax) report('text_count_max', ['options', 'max_text_count'])
  if (o.max_text_count <= o.min_text_count) report('text_count_order', ['options', 'max_text_count'])
}

export function essayRules(
  o: {
    language: string
    genre: string
    min_word_count: number
    max_word_count: number
    assessed_skill_ids: string[]
    assessed_skill_group_id: string
    support_text: string
  },
  report: Report,
  limits: QuestionLimits,
) {
  if (!o.language) report('essay_language', ['options', 'language'])
  if (!o.genre) report('essay_genre', ['options', 'genre'])
  if (o.min_word_count < limits.essayWordMin) report('essay_word_min', ['options', 'min_word_count'])
  if (o.max_word_count <= o.min_word_count) report('essay_word_order', ['options', 'max_word_count'])
  else if (o.max_word_count < limits.essayMaxWordsAtLeast) report('essay_word_max_min', ['options', 'max_word_count'])
  else if (o.max_word_count > limits.essayWordMax) report('essay_word_max', ['options', 'max_word_count'])
  if (!o.assessed_skill_ids.length && !o.assessed_skill_group_id) report('essay_skills', ['options', 'assessed_skill_ids'])
  if (new Set(o.assessed_skill_ids).size !== o.assessed_skill_ids.length) report('essay_skill_duplicate', ['options', 'assessed_skill_ids'])
  richRules(o.support_text, ['options', 'support_text'], report)
}

export function fillLettersRules(o: { answer: string }, report: Report) {
  if (!o.answer.trim()) report('fill_letters_answer', ['options', 'answer'])
  else if (/\s/.test(o.answer)) report('fill_letters_spaces', ['options', 'answer'])
}

export function fillWordsRules(o: { sentence: string; incorrect: string[] }, report: Report, limits: QuestionLimits) {
  const problem = sentenceProblem(o.sentence)
  if (problem) return report(problem === 'nested' ? 'fill_words_nested' : 'fill_words_unclosed', ['options', 'sentence'])
  const gaps = parsePhrase(o.sentence).filter((i) => i.type === 'select')
  if (!gaps.length) return report('fill_words_gap_required', ['options', 'sentence'])
  if (gaps.some((g) => !g.value)) report('fill_words_gap_empty', ['options', 'sentence'])
  else if (gaps.some((g) => wordsOf(g.value).length > limits.fillWordsGapWords)) report('fill_words_gap_words', ['options', 'sentence'])
  if (gaps.length + o.incorrect.length < limits.fillWordsOptionsMin) report('fill_words_options_min', ['options', 'incorrect'])
  o.incorrect.forEach((word, i) => {
    const at = ['options', 'incorrect', i]
    if (!word.trim()) report('fill_words_incorrect_empty', at)
    else if (gaps.some((g) => sameAnswer(g.value, word))) report('fill_words_incorrect_correct', at)
    else if (o.incorrect.slice(0, i).some((w) => sameAnswer(w, word))) report('fill_words_incorrect_duplicate', at)
  })
}

export function orderRules(o: { sentences: string[]; incorrect: string[] }, report: Report, limits: QuestionLimits) {
  if (o.sentences.length < limits.orderSentencesMin) report('order_min', ['options', 'sentences'])
  o.sentences.forEach((s, i) => !s.trim() && report('order_empty', ['options', 'sentences', i]))
  o.incorrect.forEach((s, i) => !s.trim() && report('order_empty', ['options', 'incorrect', i]))
}

export function cloudRules(o: { phrase: string; extra: string[] }, report: Report, limits: QuestionLimits) {
  const words = wordsOf(o.phrase)
  if (!words.length) report('cloud_phrase', ['options', 'phrase'])
  if (words.length + o.extra.length < limits.cloudIdsMin) report('cloud_ids_min', ['options', 'extra'])
  o.extra.forEach((word, i) => {
    const at = ['options', 'extra', i]
    if (!word.trim()) report('cloud_extra_empty', at)
    else if (words.some((w) => sameAnswer(w, word)) || o.extra.slice(0, i).some((w) => sameAnswer(w, word))) report('cloud_duplicate', at)
  })
}
