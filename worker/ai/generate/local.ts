import { CLASS_PLAN_MINUTES, NARRATION_WORDS, SUMMARY_SHAPE, wordCount, type ConfigLength } from '#shared/schemas/lesson/content'
import type { AnyOptions, Difficulty } from '#shared/schemas/lesson/genesis'
import type { ClassPlanDraft, DraftQuestion, HandoutDraft, NarrationDraft, PairsDraft, SlidesDraft, SummaryDraft, TaskDraft } from './drafts'
import { bySalience, fitSentences, intoParagraphs, keywords, rankedSentences, type Sentence, type SourceSection } from './text'
import { wordsOf } from './words'

/**
 * The local engine's templates for lesson contents (docs ai.md "the local engine is real, and says what it is"):
 * extractive and deterministic — every sentence of a summary, handout, narration or answer is a sentence of the
 * sources (possibly cut, marked "…"), framed by fixed template phrases; nothing is invented.
 */

export interface LocalContext {
  title: string
  language: string
  sections: SourceSection[]
  options: AnyOptions
}

/** Sentences that serve a summary focus (seed 001 §3) weigh more when the focus is chosen. */
const FOCUS: Record<string, RegExp> = {
  definitions: /\b(é|são|significa|define|chama-se|is|are|means|refers to|es|son|se define)\b/i,
  formulas: /[=+×÷^]|\d/,
  applications: /\b(us[ao]|aplica|utiliza|exemplo|prática|use[sd]?|appl|example|practice|ejemplo|práctica)/i,
  historical_context: /\b(1[5-9]\d\d|20\d\d|século|history|histor|century|siglo)/i,
  critical_thinking: /\b(por que|porque|entretanto|contudo|why|however|because|sin embargo|aunque|pero|mas)\b/i,
}

export function summaryBoost(focus: readonly string[] | undefined) {
  const tests = (focus ?? []).map((f) => FOCUS[f]).filter(Boolean)
  return (s: string) => (tests.some((re) => re.test(s)) ? 1.5 : 1)
}

/** An extractive summary: the most salient sentences, in source order, within the depth's words and paragraphs. */
export function localSummary(ctx: LocalContext): SummaryDraft {
  const shape = SUMMARY_SHAPE[ctx.options.depth ?? 'standard']
  const ranked = bySalience(rankedSentences(ctx.sections, summaryBoost(ctx.options.focus)))
  const chosen = fitSentences(ranked, shape.words)
  return { paragraphs: intoParagraphs(chosen, shape.paragraphs[0]) }
}

/** Minutes of each phase: opening and wrap-up a tenth each, the class type's activity a share, the rest by section. */
export function planMinutes(duration: number, classType: string, sections: number): { intro: number; develop: number[]; activity: number; wrap: number } {
  const d = Math.min(CLASS_PLAN_MINUTES.max, Math.max(CLASS_PLAN_MINUTES.min, duration))
  const intro = Math.max(1, Math.round(d * 0.1))
  const wrap = Math.max(1, Math.round(d * 0.1))
  const activity = Math.max(1, Math.round(d * (classType === 'lecture' ? 0.15 : 0.3)))
  const rest = d - intro - wrap - activity
  const k = Math.max(1, Math.min(sections, Math.floor(rest / 3)))
  const develop = Array.from({ length: k }, (_, i) => Math.floor(rest / k) + (i < rest % k ? 1 : 0))
  return { intro, develop, activity, wrap }
}

/** A class plan from the source's sections, the class type, group size and duration (minutes add up exactly). */
export function localClassPlan(ctx: LocalContext): ClassPlanDraft {
  const w = wordsOf(ctx.language)
  const type = ctx.options.class_type ?? 'lecture'
  const m = planMinutes(ctx.options.duration ?? 50, type, ctx.sections.length)
  const ranked = rankedSentences(ctx.sections)
  const lead = (i: number) => bySalience(ranked.filter((s) => s.section === i))[0]?.text ?? ctx.sections[i]?.text ?? ''
  const phases = [
    { title: w.intro, minutes: m.intro, activity: w.intro_text(ctx.title) },
    ...m.develop.map((minutes, i) => ({ title: w.develop(ctx.sections[i]?.title ?? ctx.title), minutes, activity: lead(i) })),
    { title: `${w.activity} (${w.group_sizes[ctx.options.group_size ?? 'whole_class']})`, minutes: m.activity, activity: w.activity_text[type] },
    { title: w.wrap, minutes: m.wrap, activity: w.wrap_text },
  ]
  return { phases, materials: ctx.options.materials ?? '', homework: ctx.options.homework ? w.homework_text(ctx.title) : '' }
}

const BULLETS: Record<ConfigLength, number> = { short: 3, medium: 4, long: 5, very_long: 6 }
/** Longest bullet, in words. */
const BULLET_WORDS = 25

/** Slides from sections: a cover, then each section's title with its most salient sentences as bullets. */
export function localSlides(ctx: LocalContext): SlidesDraft {
  const ranked = rankedSentences(ctx.sections)
  const n = BULLETS[ctx.options.length ?? 'medium']
  const cover = { title: ctx.title, bullets: [shorten(bySalience(ranked)[0]?.text ?? '')].filter(Boolean) }
  const slides = ctx.sections.slice(0, 30).map((sec, i) => ({
    title: sec.title,
    bullets: bySalience(ranked.filter((s) => s.section === i))
      .slice(0, n)
      .sort((a, b) => a.index - b.index)
      .map((s) => shorten(s.text)),
  }))
  return { slides: [cover, ...slides.filter((s) => s.bullets.length)] }
}

const shorten = (s: string) => (wordCount(s) > BULLET_WORDS ? s.split(/\s+/).slice(0, BULLET_WORDS).join(' ') + '…' : s)

/** Word range of the narration of slide `i` of `count` (cover, middle slides, last slide; seed 001 §9). */
export function narrationRange(options: AnyOptions, i: number, count: number): readonly [number, number] {
  if (i === 0) return NARRATION_WORDS.cover[options.cover_length ?? 'medium']
  if (i === count - 1) return NARRATION_WORDS.slide[options.last_slide_length ?? 'medium']
  return NARRATION_WORDS.slide[options.slide_length ?? 'medium']
}

/**
 * Narration per slide: the tone's opening (cover), a transition (when smooth) or the slide's title, then source
 * sentences — the slide's own section first, then the following ones — fitted to the slide's word range.
 */
export function localNarration(ctx: LocalContext, slides: SlidesDraft): NarrationDraft {
  const w = wordsOf(ctx.language)
  const ranked = rankedSentences(ctx.sections)
  const count = slides.slides.length
  const narrations = slides.slides.map((slide, i) => {
    const range = narrationRange(ctx.options, i, count)
    const frame =
      i === 0
        ? w.cover[ctx.options.tone ?? 'friendly'](ctx.title)
        : i === count - 1 && count > 2
          ? w.closing
          : ctx.options.transitions === 'independent'
            ? w.slide(slide.title)
            : w.next(slide.title)
    const sectionOf = ctx.sections.findIndex((s) => s.title === slide.title)
    const start = sectionOf >= 0 ? sectionOf : 0
    // The slide's section, then the next ones (wrapping), each in source order.
    const ordered: Sentence[] = [...ranked.filter((s) => s.section >= start), ...ranked.filter((s) => s.section < start)]
    const fw = wordCount(frame)
    const body = fitSentences(ordered, [Math.max(0, range[0] - fw), range[1] - fw], () => 0)
    return [frame, ...body].join(' ')
  })
  return { narrations }
}

const HANDOUT_SENTENCES: Record<ConfigLength, number> = { short: 3, medium: 5, long: 8, very_long: 1000 }

/** A handout: each section with its most salient sentences (all of them at "very long"), and the key terms. */
export function localHandout(ctx: LocalContext): HandoutDraft {
  const ranked = rankedSentences(ctx.sections)
  const n = HANDOUT_SENTENCES[ctx.options.length ?? 'medium']
  const sections = ctx.sections.map((sec, i) => {
    const chosen = bySalience(ranked.filter((s) => s.section === i))
      .slice(0, n)
      .sort((a, b) => a.index - b.index)
      .map((s) => s.text)
    return { title: sec.title, paragraphs: intoParagraphs(chosen, Math.max(1, Math.ceil(chosen.length / 4))) }
  })
  return { sections: sections.filter((s) => s.paragraphs.length), key_terms: keywords(ctx.sections, 12) }
}

const PAIRS: Record<ConfigLength, number> = { short: 3, medium: 5, long: 8, very_long: 12 }
const DEFINITION = /^(.{2,60}?)\s+(é|são|is|are|es|son)\s+/i

/** Question-answer pairs: a definition sentence asks what its subject is; another asks what the text says of its key term. */
export function localPairs(ctx: LocalContext): PairsDraft {
  const w = wordsOf(ctx.language)
  const ranked = bySalience(rankedSentences(ctx.sections)).filter((s) => s.words >= 6)
  const terms = keywords(ctx.sections, 60)
  const pairs: PairsDraft['pairs'] = []
  const asked = new Set<string>()
  for (const s of ranked) {
    if (pairs.length >= PAIRS[ctx.options.length ?? 'medium']) break
    const def = s.text.match(DEFINITION)
    const subject = def?.[1]?.trim()
    if (subject && wordCount(subject) <= 6 && !asked.has(subject.toLowerCase())) {
      asked.add(subject.toLowerCase())
      pairs.push({ question: w.what_is(subject.replace(/^(o|a|os|as|the|el|la|los|las)\s+/i, '')), answer: s.text })
      continue
    }
    const term = terms.find((t) => s.text.toLowerCase().includes(t) && !asked.has(t))
    if (!term) continue
    asked.add(term)
    pairs.push({ question: w.about(term), answer: s.text })
  }
  return { pairs }
}

/** Key terms by difficulty: the most frequent for easy, the middle of the list for medium, rarer ones for hard. */
function termsFor(all: string[], difficulty: Difficulty): string[] {
  if (difficulty === 'easy') return all
  const from = difficulty === 'medium' ? Math.floor(all.length / 4) : Math.floor(all.length / 2)
  return [...all.slice(from), ...all.slice(0, from)]
}

const wordRe = (term: string) => new RegExp(`(^|[^\\p{L}\\p{N}])(${term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})(?=$|[^\\p{L}\\p{N}])`, 'iu')

/**
 * Questions from source sentences: fill-words clozes (two or three key terms of a sentence become gaps, other key
 * terms the wrong choices), true/false claims (the sentence as written is true; with one key term swapped for
 * another it is false) and single choice (the sentence with a key term blanked, that term and three others as options).
 */
export function localQuestions(ctx: LocalContext, counts: Record<'fill_words' | 'true_false' | 'single', number>, difficulty: Difficulty): TaskDraft {
  const w = wordsOf(ctx.language)
  const terms = termsFor(keywords(ctx.sections, 60), difficulty)
  const ranked = bySalience(rankedSentences(ctx.sections)).filter((s) => s.words >= 8 && s.words <= 60)
  const used = new Set<number>()
  const questions: DraftQuestion[] = []
  const termsIn = (s: Sentence) => terms.filter((t) => wordRe(t).test(s.text))
  const take = (need: number) => ranked.find((s) => !used.has(s.index) && termsIn(s).length >= need)
  const others = (exclude: string[], n: number, seed: number) => {
    const pool = terms.filter((t) => !exclude.includes(t))
    return Array.from({ length: Math.min(n, pool.length) }, (_, i) => pool[(seed + i * 3) % pool.length]).filter((x, i, a) => a.indexOf(x) === i)
  }
  const gaps = difficulty === 'hard' ? 3 : 2
  for (let i = 0; i < counts.fill_words; i++) {
    const s = take(2)
    if (!s) break
    used.add(s.index)
    const chosen = termsIn(s).slice(0, gaps)
    let sentence = s.text
    for (const t of chosen) sentence = sentence.replace(wordRe(t), (_, pre: string, word: string) => `${pre}[[${word}]]`)
    questions.push({ type: 'fill_words', sentence, incorrect: others(chosen, 3, s.index) })
  }
  for (let i = 0; i < counts.true_false; i++) {
    const s = take(1)
    if (!s) break
    used.add(s.index)
    const truth = i % 2 === 0
    const term = termsIn(s)[0]
    const swap = others([term], 1, s.index)[0]
    const claim = truth || !swap ? s.text : s.text.replace(wordRe(term), (_, pre: string) => `${pre}${swap}`)
    questions.push({ type: 'true_false', claim, answer: truth || !swap })
  }
  for (let i = 0; i < counts.single; i++) {
    const s = take(1)
    if (!s) break
    used.add(s.index)
    const term = termsIn(s)[0]
    const blanked = s.text.replace(wordRe(term), (_, pre: string) => `${pre}_____`)
    const distractors = others([term], 3, s.index)
    const options = [term, ...distractors]
    // The right option's place turns with the sentence, so it is not always the first.
    const at = s.index % options.length
    const placed = [...options.slice(1, at + 1), term, ...options.slice(at + 1)]
    questions.push({ type: 'single', statement: w.choose(blanked), options: placed, correct: placed.indexOf(term) })
  }
  return { questions }
}
