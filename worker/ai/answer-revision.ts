/**
 * The AI correction assistant (issue 17, seed 001 §4 "AI revision"): one revision of an answer's written questions
 * (text_ai and essays) through the realm's text engine — proposed scores per assessed skill, errors marked by
 * category (seed 001 §3: orthography, morphology, syntax, semantics, language, others, note) with explanations, and
 * a comment for the student. A model answers JSON checked by `RevisionResult`; the local engine (no model) runs
 * `localRevision`: simple deterministic rules, and its comment says plainly that no AI model read the text.
 */
import * as v from 'valibot'
import { plainText } from '#shared/rich-text'
import { ESSAY_ERROR_CATEGORIES, QUESTION_LIMITS } from '#shared/schemas/tms/constants'
import { skillsScore } from '#shared/schemas/tms/correction'
import type { TextEngine } from './types'

export const ERROR_CATEGORIES = Object.keys(ESSAY_ERROR_CATEGORIES).map((k) => k.toLowerCase()) as [string, ...string[]]

const Str = (max: number) => v.pipe(v.string(), v.maxLength(max))
/** What a model (or the local engine) answers; scores of skills out of 10 (essays are graded out of 10). */
export const RevisionResult = v.object({
  questions: v.pipe(
    v.array(
      v.object({
        question_id: Str(60),
        score: v.pipe(v.number(), v.minValue(0)),
        skills: v.optional(v.pipe(v.array(v.object({ skill_id: Str(60), score: v.pipe(v.number(), v.minValue(0), v.maxValue(10)) })), v.maxLength(50)), []),
        errors: v.optional(
          v.pipe(v.array(v.object({ category: v.picklist(ERROR_CATEGORIES), excerpt: Str(300), explanation: Str(600) })), v.maxLength(100)),
          [],
        ),
      }),
    ),
    v.maxLength(200),
  ),
  comment: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(4000)),
})
export type RevisionResult = v.InferOutput<typeof RevisionResult>

/** A written question the assistant revises, with the student's text. */
export interface RevisedQuestion {
  id: string
  type: 'text_ai' | 'essay'
  statement: string
  /** Its score in the task. */
  score: number
  /** text_ai: the expected answer the teacher wrote (the question's comment). */
  reference: string
  /** essay: the language, the words asked for, the assessed skills. */
  language: string
  minWords: number
  maxWords: number
  skills: { id: string; name: string; weight: number }[]
  text: string
}

/** A score within 0..max on the score step (in thousandths, as the API compares them). */
const snap = (x: number, max: number) => {
  const m = QUESTION_LIMITS.scoreMultiplier
  const step = Math.round(QUESTION_LIMITS.scoreStep * m)
  const top = Math.floor(Math.round(max * m) / step) * step
  return Math.min(top, Math.max(0, Math.round((x * m) / step) * step)) / m
}
const words = (s: string) => s.match(/[\p{L}\p{N}'’-]+/gu) ?? []

/** The question's proposed score from its skills' (out of 10, weighted), or the score given when it has none. */
function questionScore(q: RevisedQuestion, given: number, skills: { skill_id: string; score: number }[]): number {
  return skillsScore(q.skills, Object.fromEntries(skills.map((s) => [s.skill_id, s.score])), q.score) ?? snap(given, q.score)
}

/**
 * What a model answered, kept within the answer: questions it was asked about only, skills of the question only,
 * errors whose excerpt is in the student's text (a mark must point somewhere), scores within the question's score
 * and on its step (from the skills when it graded them).
 */
export function settleRevision(questions: RevisedQuestion[], raw: RevisionResult): RevisionResult {
  const byId = new Map(questions.map((q) => [q.id, q]))
  const out: RevisionResult['questions'] = []
  for (const r of raw.questions) {
    const q = byId.get(r.question_id)
    if (!q || out.some((x) => x.question_id === q.id)) continue
    const skills = (r.skills ?? []).filter((s) => q.skills.some((k) => k.id === s.skill_id)).map((s) => ({ ...s, score: Math.round(s.score * 10) / 10 }))
    const errors = (r.errors ?? []).filter((e) => e.excerpt.trim() && q.text.includes(e.excerpt))
    out.push({ question_id: q.id, score: questionScore(q, r.score, skills), skills, errors })
  }
  return { questions: out, comment: raw.comment }
}

const LOCAL_TEXT: Record<string, Record<string, (n?: string) => string>> = {
  pt: {
    lowercase: () => 'A frase começa com letra minúscula.',
    repeated: (w) => `Palavra repetida em seguida: “${w}”.`,
    spaces: () => 'Espaços a mais entre palavras.',
    long: () => 'Frase muito longa (mais de 40 palavras): considere dividi-la.',
    short: (n) => `O texto tem menos palavras do que o pedido (mínimo ${n}).`,
    intro: (n) =>
      `Revisão pelo mecanismo local (sem modelo de IA): nenhum modelo leu o texto. Foram aplicadas regras simples (maiúsculas, palavras repetidas, espaços, frases longas, tamanho) e ${n} marca(s) encontrada(s). As notas propostas vêm do tamanho e das marcas: confira-as antes de finalizar.`,
    reference: (n) => `A resposta contém ${n}% das palavras-chave da resposta esperada.`,
  },
  en: {
    lowercase: () => 'The sentence starts with a lowercase letter.',
    repeated: (w) => `Word repeated in a row: “${w}”.`,
    spaces: () => 'Extra spaces between words.',
    long: () => 'Very long sentence (over 40 words): consider splitting it.',
    short: (n) => `The text has fewer words than asked for (at least ${n}).`,
    intro: (n) =>
      `Revision by the local engine (no AI model): no model read the text. Simple rules were applied (capitals, repeated words, spaces, long sentences, length) and ${n} mark(s) were found. The proposed scores come from the length and the marks: check them before finalizing.`,
    reference: (n) => `The answer has ${n}% of the key words of the expected answer.`,
  },
  es: {
    lowercase: () => 'La frase empieza con minúscula.',
    repeated: (w) => `Palabra repetida seguida: «${w}».`,
    spaces: () => 'Espacios de más entre palabras.',
    long: () => 'Frase muy larga (más de 40 palabras): considere dividirla.',
    short: (n) => `El texto tiene menos palabras de las pedidas (mínimo ${n}).`,
    intro: (n) =>
      `Revisión por el motor local (sin modelo de IA): ningún modelo leyó el texto. Se aplicaron reglas simples (mayúsculas, palabras repetidas, espacios, frases largas, extensión) y se encontraron ${n} marca(s). Las notas propuestas salen de la extensión y las marcas: revíselas antes de finalizar.`,
    reference: (n) => `La respuesta tiene el ${n}% de las palabras clave de la respuesta esperada.`,
  },
}

/** The local engine's revision: deterministic rules, no model (the same text always gets the same revision). */
export function localRevision(questions: RevisedQuestion[], language: string): RevisionResult {
  const say = LOCAL_TEXT[language.slice(0, 2)] ?? LOCAL_TEXT.pt
  let marks = 0
  const notes: string[] = []
  const out = questions.map((q) => {
    const text = q.text
    const errors: RevisionResult['questions'][number]['errors'] = []
    for (const m of text.matchAll(/(?:^|[.!?]\s+)(\p{Ll}[\p{L}'’-]*)/gu)) errors.push({ category: 'orthography', excerpt: m[1], explanation: say.lowercase() })
    for (const m of text.matchAll(/\b([\p{L}]+)\s+\1\b/giu)) errors.push({ category: 'syntax', excerpt: m[0], explanation: say.repeated(m[1]) })
    for (const m of text.matchAll(/\S {2,}\S/g)) errors.push({ category: 'others', excerpt: m[0], explanation: say.spaces() })
    for (const s of text.split(/(?<=[.!?])\s+/))
      if (words(s).length > 40) errors.push({ category: 'language', excerpt: s.slice(0, 120), explanation: say.long() })
    const count = words(text).length
    const short = q.minWords > 0 && count < q.minWords
    if (short) errors.push({ category: 'note', excerpt: text.slice(0, 40), explanation: say.short(String(q.minWords)) })
    const kept = errors.slice(0, 100)
    marks += kept.length
    let ratio: number
    if (q.type === 'text_ai') {
      const key = [
        ...new Set(
          words(plainText(q.reference))
            .map((w) => w.toLowerCase())
            .filter((w) => w.length > 3),
        ),
      ]
      const have = new Set(words(text).map((w) => w.toLowerCase()))
      ratio = key.length ? key.filter((w) => have.has(w)).length / key.length : 0
      notes.push(say.reference(String(Math.round(ratio * 100))))
    } else ratio = Math.max(0, 10 - kept.length - (short ? 3 : 0)) / 10
    const skill10 = Math.round(ratio * 100) / 10
    const skills = q.skills.map((s) => ({ skill_id: s.id, score: skill10 }))
    return { question_id: q.id, score: questionScore(q, ratio * q.score, skills), skills, errors: kept }
  })
  return { questions: out, comment: [say.intro(String(marks)), ...notes].join(' ') }
}

const SHAPE = `{"questions":[{"question_id":"<id>","score":<number from 0 to the question's score>,"skills":[{"skill_id":"<id>","score":<0-10>}],"errors":[{"category":"${ERROR_CATEGORIES.join('|')}","excerpt":"<exact words of the student's text>","explanation":"<why, in the text's language>"}]}],"comment":"<a comment to the student, in the text's language>"}`

/** Runs one revision through the realm's engine (a model, or the local rules). */
export async function reviseAnswer(engine: TextEngine, questions: RevisedQuestion[], language: string): Promise<{ result: RevisionResult; engine: string }> {
  const prompt = questions
    .map((q) =>
      [
        `Question ${q.id} (${q.type}, worth ${q.score}): ${plainText(q.statement)}`,
        q.type === 'text_ai' ? `Expected answer: ${plainText(q.reference)}` : `Essay in ${q.language}, ${q.minWords} to ${q.maxWords} words.`,
        q.skills.length ? `Assessed skills (grade each 0-10): ${q.skills.map((s) => `${s.id} = ${s.name} (weight ${s.weight})`).join('; ')}` : '',
        `Student's text:\n"""\n${q.text}\n"""`,
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n')
  const out = await engine.generate({
    schema: RevisionResult,
    shape: SHAPE,
    system:
      "You assist a teacher correcting students' written answers. Propose a score per question (and per assessed skill, 0-10), mark errors by category quoting the student's exact words, and write one short encouraging comment to the student. Never invent text the student did not write.",
    prompt,
    maxTokens: 2000,
    local: () => localRevision(questions, language),
  })
  return { result: settleRevision(questions, out.data), engine: out.engine }
}
