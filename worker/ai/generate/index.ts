import * as v from 'valibot'
import { CLASS_PLAN_MINUTES, SUMMARY_SHAPE, wordCount } from '#shared/schemas/lesson/content'
import type { AnyOptions, Difficulty, GeneratedKind, QuestionPair } from '#shared/schemas/lesson/genesis'
import { PAGE_HEIGHT, PAGE_WIDTH, type Slide, type SlideDeck } from '#shared/schemas/lesson/slide'
import { Question } from '#shared/schemas/tms/question'
import { AiError, type GenerateRequest, type TextEngine } from '../types'
import { ClassPlanDraft, HandoutDraft, NarrationDraft, PairsDraft, SlidesDraft, SummaryDraft, TaskDraft, type DraftQuestion } from './drafts'
import {
  localClassPlan,
  localHandout,
  localNarration,
  localPairs,
  localQuestions,
  localSlides,
  localSummary,
  narrationRange,
  summaryBoost,
  type LocalContext,
} from './local'
import { bySalience, escapeHtml, fitSentences, intoParagraphs, rankedSentences, trimWords, type SourceSection } from './text'
import { wordsOf } from './words'

/**
 * The lesson generator (issue 18) inside the AI layer: per content kind a prompt built from the sources, the content
 * configuration and the agent, sent through the realm's text engine (`generate`: JSON checked by valibot, one retry),
 * then the seed 001 §9 lengths enforced — checked, asked for once more with what was wrong, then fitted honestly
 * (cut at sentence and word boundaries, or completed with source sentences) — and rendered into the lesson's
 * contents. The local engine answers with its extractive templates (./local.ts), which meet the lengths by
 * construction.
 */

export interface GenerationContext extends LocalContext {
  guideline: string
  agent: { name: string; target_audience: string } | null
}

/** What one content adds to the lesson document. */
export type ContentOutput =
  | { kind: 'summary'; summary: string }
  | { kind: 'class_plan'; class_plan: { html: string; minutes: number } }
  | { kind: 'handout'; handout: string }
  | { kind: 'slide'; slides: SlideDeck }
  | { kind: 'narrative'; slides: SlideDeck }
  | { kind: 'question_pairs'; question_pairs: QuestionPair[] }
  | { kind: 'task'; questions: Question[] }

export interface Produced {
  output: ContentOutput
  engine: string
  /** The provider missed a length rule twice and its answer was fitted. */
  fitted: boolean
}

/** Most characters of source text given to a model. */
const SOURCE_CHARS = 24_000

function system(ctx: GenerationContext): string {
  const o = ctx.options
  return [
    'You write teaching material for a lesson, only from the source text given; never add facts that are not in it.',
    `Write in ${ctx.language}.`,
    ctx.agent ? `You act as the agent "${ctx.agent.name}". Target audience: ${ctx.agent.target_audience || 'students'}.` : '',
    o.style ? `Style: ${o.style}.` : '',
    o.examples && o.examples !== 'none' ? `Prefer examples from: ${o.examples.replace('_', ' ')}.` : '',
    ctx.guideline ? `Guideline of the configuration: ${ctx.guideline}` : '',
  ]
    .filter(Boolean)
    .join('\n')
}

function sourceText(sections: SourceSection[]): string {
  return sections
    .map((s) => `## ${s.title}\n${s.text}`)
    .join('\n\n')
    .slice(0, SOURCE_CHARS)
}

/** One structured call with the kind's schema, the local template as the offline answer. */
function ask<S extends v.GenericSchema>(
  engine: TextEngine,
  ctx: GenerationContext,
  schema: S,
  shape: string,
  task: string,
  local: () => v.InferOutput<S>,
  maxTokens = 3000,
) {
  const req: GenerateRequest<S> = {
    schema,
    shape,
    system: system(ctx),
    prompt: `Lesson title: ${ctx.title}\n\nSource:\n${sourceText(ctx.sections)}\n\nTask: ${task}`,
    maxTokens,
    local,
  }
  return engine.generate(req)
}

/** Runs a call, checks it, asks once more with the problem when a provider missed the rule; answers the last draft and whether it still misses. */
async function checked<T>(run: (feedback: string) => Promise<{ data: T; engine: string }>, problem: (d: T) => string | null) {
  let out = await run('')
  let issue = problem(out.data)
  if (issue && out.engine !== 'local') {
    out = await run(`\nYour previous answer missed a rule: ${issue}. Follow it exactly.`)
    issue = problem(out.data)
  }
  return { ...out, missed: issue !== null }
}

// ---------- summary ----------

export function summaryProblem(d: SummaryDraft, options: AnyOptions): string | null {
  const shape = SUMMARY_SHAPE[options.depth ?? 'standard']
  const words = d.paragraphs.reduce((n, p) => n + wordCount(p), 0)
  if (words < shape.words[0] || words > shape.words[1]) return `the summary must have ${shape.words[0]} to ${shape.words[1]} words (it has ${words})`
  if (d.paragraphs.length < shape.paragraphs[0] || d.paragraphs.length > shape.paragraphs[1])
    return `the summary must have ${shape.paragraphs[0]} to ${shape.paragraphs[1]} paragraphs (it has ${d.paragraphs.length})`
  return null
}

/** A summary fitted to its depth: cut to the most words, completed with the source's salient sentences, re-paragraphed. */
export function fitSummary(d: SummaryDraft, ctx: LocalContext): SummaryDraft {
  const shape = SUMMARY_SHAPE[ctx.options.depth ?? 'standard']
  let text = trimWords(d.paragraphs.join(' '), shape.words[1])
  const have = wordCount(text)
  if (have < shape.words[0]) {
    const ranked = bySalience(rankedSentences(ctx.sections, summaryBoost(ctx.options.focus))).filter((s) => !text.includes(s.text))
    text = [text, ...fitSentences(ranked, [shape.words[0] - have, shape.words[1] - have])].join(' ')
  }
  const parts = text.split(/(?<=[.!?…])\s+/)
  return { paragraphs: intoParagraphs(parts, shape.paragraphs[0]) }
}

const paragraphsHtml = (ps: string[]) => ps.map((p) => `<p>${escapeHtml(p)}</p>`).join('')

// ---------- class plan ----------

/** The class plan's phases scaled to the configured minutes (the last phase takes the rounding), as HTML. */
export function renderClassPlan(d: ClassPlanDraft, ctx: LocalContext): { html: string; minutes: number } {
  const w = wordsOf(ctx.language)
  const minutes = Math.min(CLASS_PLAN_MINUTES.max, Math.max(CLASS_PLAN_MINUTES.min, ctx.options.duration ?? 50))
  const sum = d.phases.reduce((n, p) => n + p.minutes, 0)
  let phases = d.phases
  if (sum !== minutes) {
    const scaled = d.phases.map((p) => ({ ...p, minutes: Math.max(1, Math.round((p.minutes * minutes) / sum)) }))
    const diff = minutes - scaled.reduce((n, p) => n + p.minutes, 0)
    const longest = scaled.reduce((b, p, i) => (p.minutes > scaled[b].minutes ? i : b), 0)
    scaled[longest] = { ...scaled[longest], minutes: scaled[longest].minutes + diff }
    phases = scaled
  }
  const type = w.class_types[ctx.options.class_type ?? 'lecture']
  const group = w.group_sizes[ctx.options.group_size ?? 'whole_class']
  const html = [
    `<h2>${escapeHtml(w.plan)}: ${escapeHtml(ctx.title)}</h2>`,
    `<p><strong>${w.type}:</strong> ${escapeHtml(type)} · <strong>${w.duration}:</strong> ${minutes} min · <strong>${w.grouping}:</strong> ${escapeHtml(group)}</p>`,
    `<ol>${phases.map((p) => `<li><strong>${escapeHtml(p.title)} (${p.minutes} min)</strong>: ${escapeHtml(p.activity)}</li>`).join('')}</ol>`,
    d.materials ? `<p><strong>${w.materials}:</strong> ${escapeHtml(d.materials)}</p>` : '',
    d.homework ? `<p><strong>${w.homework}:</strong> ${escapeHtml(d.homework)}</p>` : '',
  ].join('')
  return { html, minutes }
}

// ---------- slides ----------

const INK = '#1f2937'
const box = (id: string, name: string, y: number, height: number, html: string, size: number, align: 'left' | 'center') => ({
  id,
  name,
  kind: 'text' as const,
  x: 200,
  y,
  width: PAGE_WIDTH - 400,
  height,
  rotation: 0,
  opacity: 1,
  hidden: false,
  locked: false,
  html,
  font_size: size,
  color: INK,
  align,
})

/**
 * Slides as the slide editor's document: a title box and a bullet list per slide, on the lesson's page size. The boxes
 * are named in the lesson's language ("Título"/"Texto", "Title"/"Text"), as the rest of its content is.
 */
export function renderSlides(d: SlidesDraft, language: string): SlideDeck {
  const w = wordsOf(language)
  return d.slides.map((s, i): Slide => {
    const id = `s${i + 1}`
    const cover = i === 0
    const body = cover ? s.bullets.map((b) => `<p>${escapeHtml(b)}</p>`).join('') : `<ul>${s.bullets.map((b) => `<li>${escapeHtml(b)}</li>`).join('')}</ul>`
    return {
      id,
      background: '#ffffff',
      objects: [
        box(`${id}_title`, w.slide_title, cover ? 700 : 160, cover ? 500 : 360, `<p>${escapeHtml(s.title)}</p>`, cover ? 160 : 120, cover ? 'center' : 'left'),
        ...(s.bullets.length
          ? [box(`${id}_body`, w.slide_text, cover ? 1300 : 620, cover ? 600 : PAGE_HEIGHT - 820, body, cover ? 80 : 72, cover ? 'center' : 'left')]
          : []),
      ],
      narration: '',
      overlay: 'none',
    }
  })
}

// ---------- narration ----------

export function narrationProblem(d: NarrationDraft, options: AnyOptions, count: number): string | null {
  if (d.narrations.length !== count) return `write exactly ${count} narrations, one per slide`
  for (let i = 0; i < count; i++) {
    const [min, max] = narrationRange(options, i, count)
    const n = wordCount(d.narrations[i])
    if (n < min || n > max) return `narration ${i + 1} must have ${min} to ${max} words (it has ${n})`
  }
  return null
}

/** Narrations fitted to each slide's range: cut when long; completed with the local narration's source sentences when short. */
export function fitNarration(d: NarrationDraft, ctx: LocalContext, slides: SlidesDraft): NarrationDraft {
  const local = localNarration(ctx, slides).narrations
  const count = slides.slides.length
  return {
    narrations: slides.slides.map((_, i) => {
      const [min, max] = narrationRange(ctx.options, i, count)
      let text = trimWords(d.narrations[i] ?? '', max)
      if (wordCount(text) < min) {
        const extra = local[i].split(/(?<=[.!?…])\s+/).filter((s) => !text.includes(s))
        for (const s of extra) {
          if (wordCount(text) >= min) break
          text = trimWords(text ? `${text} ${s}` : s, max)
        }
      }
      return text
    }),
  }
}

// ---------- handout, pairs, questions ----------

export function renderHandout(d: HandoutDraft, ctx: LocalContext): string {
  const w = wordsOf(ctx.language)
  return [
    `<h1>${escapeHtml(ctx.title)}</h1>`,
    ...d.sections.map((s) => `<h2>${escapeHtml(s.title)}</h2>${paragraphsHtml(s.paragraphs)}`),
    d.key_terms.length ? `<h2>${w.key_terms}</h2><ul>${d.key_terms.map((t) => `<li>${escapeHtml(t)}</li>`).join('')}</ul>` : '',
  ].join('')
}

/** A draft question in the task model's question format (checked by its schema; one that fails is dropped). */
export function toQuestion(q: DraftQuestion, language: string): Question | null {
  const w = wordsOf(language)
  const base = { score: 1, required: true, categories: [], comment: '' }
  const draft =
    q.type === 'fill_words'
      ? {
          ...base,
          type: 'fill_words',
          statement: `<p>${escapeHtml(w.complete)}</p>`,
          options: { sentence: q.sentence, incorrect: q.incorrect, mode: 'select' },
        }
      : q.type === 'true_false'
        ? {
            ...base,
            type: 'true_false',
            statement: `<p>${escapeHtml(w.judge(q.claim))}</p>`,
            options: [
              { statement: `<p>${w.true}</p>`, answer: q.answer },
              { statement: `<p>${w.false}</p>`, answer: !q.answer },
            ],
          }
        : {
            ...base,
            type: 'single',
            shuffle: false,
            statement: `<p>${escapeHtml(q.statement)}</p>`,
            options: q.options.map((o, i) => ({ statement: `<p>${escapeHtml(o)}</p>`, answer: i === q.correct })),
          }
  const parsed = v.safeParse(Question, draft)
  return parsed.success ? parsed.output : null
}

export type QuestionCounts = Record<'fill_words' | 'true_false' | 'single', number>

/** Questions of the asked types and counts: the engine's, converted and checked, completed by the local ones when some failed. */
export async function generateQuestions(
  engine: TextEngine,
  ctx: GenerationContext,
  counts: QuestionCounts,
  difficulty: Difficulty,
): Promise<{ questions: Question[]; engine: string }> {
  const want = counts.fill_words + counts.true_false + counts.single
  const out = await ask(
    engine,
    ctx,
    TaskDraft,
    '{"questions":[{"type":"fill_words","sentence":"text with [[gap]] words (2 or more gaps, each at most 5 words)","incorrect":["wrong word"]} | {"type":"true_false","claim":"a statement","answer":true} | {"type":"single","statement":"question","options":["a","b","c","d"],"correct":0}]}',
    `Write ${counts.fill_words} fill_words, ${counts.true_false} true_false and ${counts.single} single questions, ${difficulty} difficulty, about the source.`,
    () => localQuestions(ctx, counts, difficulty),
  )
  const byType = (t: DraftQuestion['type'], qs: DraftQuestion[]) => qs.filter((q) => q.type === t)
  const converted = (qs: DraftQuestion[]) => qs.map((q) => toQuestion(q, ctx.language)).filter((q): q is Question => q !== null)
  let questions: Question[] = []
  // The local engine's own answer is complete as it is; a model's is completed by the local questions.
  const local = out.engine === 'local' ? { questions: [] } : localQuestions(ctx, counts, difficulty)
  for (const t of ['fill_words', 'true_false', 'single'] as const) {
    const mine = converted(byType(t, out.data.questions)).slice(0, counts[t])
    const fill = mine.length < counts[t] ? converted(byType(t, local.questions)).slice(0, counts[t] - mine.length) : []
    questions = [...questions, ...mine, ...fill]
  }
  // The source did not give enough sentences for the questions asked (seed 001 §8 "not enough assessments").
  if (questions.length < want) throw new AiError('ai_failed', 'genesis.error.not_enough_assessments', { asked: want, made: questions.length })
  return { questions, engine: out.engine }
}

// ---------- one content ----------

/**
 * Generates one content of a lesson. `slides` is the slide draft of this job (narration narrates it; without one
 * the local slides of the sources are narrated).
 */
export async function generateContent(
  engine: TextEngine,
  kind: GeneratedKind,
  ctx: GenerationContext,
  slides?: SlidesDraft,
): Promise<Produced & { slidesDraft?: SlidesDraft }> {
  switch (kind) {
    case 'summary': {
      const shape = SUMMARY_SHAPE[ctx.options.depth ?? 'standard']
      const out = await checked(
        (feedback) =>
          ask(
            engine,
            ctx,
            SummaryDraft,
            '{"paragraphs":["paragraph text", "..."]}',
            `Summarize the source in ${shape.words[0]} to ${shape.words[1]} words, in ${shape.paragraphs[0]}${shape.paragraphs[1] > shape.paragraphs[0] ? ` to ${shape.paragraphs[1]}` : ''} paragraphs. Focus: ${(ctx.options.focus ?? []).join(', ') || 'general'}.${feedback}`,
            () => localSummary(ctx),
          ),
        (d) => summaryProblem(d, ctx.options),
      )
      const d = out.missed ? fitSummary(out.data, ctx) : out.data
      return { output: { kind, summary: paragraphsHtml(d.paragraphs) }, engine: out.engine, fitted: out.missed }
    }
    case 'class_plan': {
      const out = await ask(
        engine,
        ctx,
        ClassPlanDraft,
        '{"phases":[{"title":"phase","minutes":10,"activity":"what happens"}],"materials":"","homework":""}',
        `Write a class plan of exactly ${ctx.options.duration ?? 50} minutes in total for a ${ctx.options.class_type ?? 'lecture'}, students working ${ctx.options.group_size ?? 'whole_class'}; ${ctx.options.homework ? 'with' : 'without'} homework. Materials: ${ctx.options.materials || 'none given'}.`,
        () => localClassPlan(ctx),
      )
      return {
        output: { kind, class_plan: renderClassPlan(out.data, ctx) },
        engine: out.engine,
        fitted: out.data.phases.reduce((n, p) => n + p.minutes, 0) !== (ctx.options.duration ?? 50),
      }
    }
    case 'handout': {
      const out = await ask(
        engine,
        ctx,
        HandoutDraft,
        '{"sections":[{"title":"","paragraphs":[""]}],"key_terms":[""]}',
        'Write a student handout of the source, section by section, and list its key terms.',
        () => localHandout(ctx),
        6000,
      )
      return { output: { kind, handout: renderHandout(out.data, ctx) }, engine: out.engine, fitted: false }
    }
    case 'slide': {
      const out = await ask(
        engine,
        ctx,
        SlidesDraft,
        '{"slides":[{"title":"","bullets":[""]}]}',
        'Write presentation slides: a cover (the lesson title, one subtitle bullet) then one slide per section of the source, each with its title and 3 to 6 short bullets.',
        () => localSlides(ctx),
      )
      return { output: { kind, slides: renderSlides(out.data, ctx.language) }, engine: out.engine, fitted: false, slidesDraft: out.data }
    }
    case 'narrative': {
      const deck = slides ?? localSlides(ctx)
      const count = deck.slides.length
      const ranges = deck.slides.map((s, i) => `slide ${i + 1} "${s.title}": ${narrationRange(ctx.options, i, count).join(' to ')} words`).join('; ')
      const out = await checked(
        (feedback) =>
          ask(
            engine,
            ctx,
            NarrationDraft,
            '{"narrations":["what the narrator says on slide 1", "..."]}',
            `Write the narration of each of these ${count} slides, tone ${ctx.options.tone ?? 'friendly'}, transitions ${ctx.options.transitions ?? 'smooth'}: ${ranges}.${feedback}`,
            () => localNarration(ctx, deck),
            6000,
          ),
        (d) => narrationProblem(d, ctx.options, count),
      )
      const d = out.missed ? fitNarration(out.data, ctx, deck) : out.data
      const rendered = renderSlides(deck, ctx.language).map((s, i) => ({ ...s, narration: d.narrations[i] ?? '' }))
      return { output: { kind, slides: rendered }, engine: out.engine, fitted: out.missed }
    }
    case 'question_pairs': {
      const out = await ask(
        engine,
        ctx,
        PairsDraft,
        '{"pairs":[{"question":"","answer":""}]}',
        'Write question-answer pairs a student can review the source with; each answer from the source.',
        () => localPairs(ctx),
      )
      return { output: { kind, question_pairs: out.data.pairs }, engine: out.engine, fitted: false }
    }
    case 'task': {
      const n = { short: 3, medium: 6, long: 9, very_long: 12 }[ctx.options.length ?? 'medium']
      const counts = { fill_words: Math.ceil(n / 3), true_false: Math.ceil(n / 3), single: n - 2 * Math.ceil(n / 3) }
      const out = await generateQuestions(engine, ctx, counts, 'medium')
      return { output: { kind, questions: out.questions }, engine: out.engine, fitted: false }
    }
  }
}
