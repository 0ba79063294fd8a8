/**
 * The language checker behind the essay's "Online Check" (issue 17, seed 001 §3 Correction "language-tool errors"):
 * locally, with no provider, the dictionary's spelling (worker/lib/speller.ts over the dictionary-pt, dictionary-en and
 * dictionary-es files) plus the plain writing rules the student's device runs (app/shared/essay-check.ts); or, when
 * the realm configures one, a LanguageTool-compatible server (`POST /v2/check`), its matches mapped to the essay
 * error categories (seed 001 §3). Each mark has its category, where it is (offset, length, excerpt), a message (the
 * local rules' message is a key the screens translate) and suggestions.
 */
import { essayIssues, ISSUE_CATEGORY, type CheckMark } from '#shared/essay-check'

export type { CheckMark }
import { hunspell, type Speller } from './speller'

export type SpellLanguage = 'pt' | 'en' | 'es'

/** The dictionaries as text modules (wrangler's Text rule; vitest.config.ts's plugin), loaded per language on demand. */
const DICTIONARIES: Record<SpellLanguage, () => Promise<[{ default: string }, { default: string }]>> = {
  pt: () => Promise.all([import('../../node_modules/dictionary-pt/index.aff'), import('../../node_modules/dictionary-pt/index.dic')]),
  en: () => Promise.all([import('../../node_modules/dictionary-en/index.aff'), import('../../node_modules/dictionary-en/index.dic')]),
  es: () => Promise.all([import('../../node_modules/dictionary-es/index.aff'), import('../../node_modules/dictionary-es/index.dic')]),
}

/** Built once per isolate and language (the Portuguese one in about half a second, README). */
const spellers = new Map<SpellLanguage, Promise<Speller>>()

/** The speller of a language, built on first use. */
export function spellerFor(language: SpellLanguage): Promise<Speller> {
  let speller = spellers.get(language)
  if (!speller) {
    speller = DICTIONARIES[language]().then(([aff, dic]) => hunspell(aff.default, dic.default))
    speller.catch(() => spellers.delete(language))
    spellers.set(language, speller)
  }
  return speller
}

/** The speller's language for an essay's content language (pt-BR and pt-PT share the Portuguese dictionary), or null. */
export function spellLanguage(contentLanguage: string): SpellLanguage | null {
  const base = contentLanguage.slice(0, 2).toLowerCase()
  return base === 'pt' || base === 'en' || base === 'es' ? base : null
}

/** Words of a text with their offsets; words with digits (numbers, "1st") and single letters are not spelt. */
const TOKEN = /\p{L}[\p{L}\p{M}'’-]*\p{L}|\p{L}/gu

/** Suggestions for at most this many distinct misspelt words (each costs a few thousand lookups). */
const SUGGESTED_WORDS = 40

/** The local check: spelling (when the language has a dictionary) and the device's rules. */
export async function localCheck(text: string, contentLanguage: string): Promise<CheckMark[]> {
  const marks: CheckMark[] = essayIssues(text).map((i) => ({
    category: ISSUE_CATEGORY[i.kind],
    offset: i.offset,
    length: i.text.length,
    excerpt: i.text,
    rule: i.kind,
    message: '',
    suggestions: [],
  }))
  const language = spellLanguage(contentLanguage)
  if (language) {
    const speller = await spellerFor(language)
    const suggested = new Map<string, string[]>()
    for (const m of text.matchAll(TOKEN)) {
      const word = m[0].replace(/^['’-]+|['’-]+$/g, '')
      if (/\d/.test(m[0]) || word.length < 2 || speller.correct(word)) continue
      let suggestions = suggested.get(word)
      if (!suggestions) {
        suggestions = suggested.size < SUGGESTED_WORDS ? speller.suggest(word) : []
        suggested.set(word, suggestions)
      }
      marks.push({ category: 'orthography', offset: m.index!, length: m[0].length, excerpt: m[0], rule: 'spelling', message: '', suggestions })
    }
  }
  return marks.sort((a, b) => a.offset - b.offset)
}

/** A LanguageTool-compatible server: its address (the base, `/v2/check` is added) and optional premium credentials. */
export interface LanguageToolServer {
  url: string
  username: string
  apiKey: string
}

interface LtMatch {
  message?: string
  offset?: number
  length?: number
  replacements?: { value?: string }[]
  rule?: { id?: string; issueType?: string; category?: { id?: string } }
}

/** LanguageTool's rule categories (and issue types) in the essay error categories of seed 001 §3. */
export function ltCategory(match: LtMatch): CheckMark['category'] {
  const category = match.rule?.category?.id ?? ''
  const issue = match.rule?.issueType ?? ''
  if (category === 'TYPOS' || category === 'CASING' || category === 'COMPOUNDING' || issue === 'misspelling') return 'orthography'
  if (category === 'GRAMMAR' || issue === 'grammar') return 'syntax'
  if (category === 'CONFUSED_WORDS' || category === 'SEMANTICS' || category === 'FALSE_FRIENDS') return 'semantics'
  if (category === 'STYLE' || category === 'REDUNDANCY' || category === 'COLLOCATIONS' || category === 'REGIONALISMS' || issue === 'style') return 'language'
  return 'others'
}

export class CheckerFailed extends Error {}

/** Checks a text on a LanguageTool-compatible server (its `POST /v2/check` form protocol). */
export async function languageToolCheck(server: LanguageToolServer, text: string, contentLanguage: string, timeoutMs = 20_000): Promise<CheckMark[]> {
  const form = new URLSearchParams({ text, language: contentLanguage || 'auto' })
  if (server.username && server.apiKey) {
    form.set('username', server.username)
    form.set('apiKey', server.apiKey)
  }
  let body: { matches?: LtMatch[] }
  try {
    const res = await fetch(`${server.url.replace(/\/+$/, '').replace(/\/v2(\/check)?$/, '')}/v2/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    })
    if (!res.ok) throw new CheckerFailed(`LanguageTool answered ${res.status}`)
    body = await res.json()
  } catch (e) {
    throw e instanceof CheckerFailed ? e : new CheckerFailed(e instanceof Error ? e.message : String(e))
  }
  if (!Array.isArray(body?.matches)) throw new CheckerFailed('LanguageTool answered no matches')
  return body.matches.flatMap((m) => {
    const offset = Number(m.offset)
    const length = Number(m.length)
    if (!Number.isInteger(offset) || !Number.isInteger(length) || offset < 0 || length < 0 || offset + length > text.length) return []
    return [
      {
        category: ltCategory(m),
        offset,
        length,
        excerpt: text.slice(offset, offset + length),
        rule: `lt:${String(m.rule?.id ?? '').slice(0, 100)}`,
        message: String(m.message ?? '').slice(0, 600),
        suggestions: (m.replacements ?? []).flatMap((r) => (typeof r.value === 'string' ? [r.value.slice(0, 100)] : [])).slice(0, 5),
      },
    ]
  })
}

/**
 * "Essay contains too many errors, revise it" (seed 001 §8): more marks than a quarter of the essay's words, and at
 * least 15 (a short draft with a few slips is still checked).
 */
export function tooManyErrors(text: string, marks: number): boolean {
  const words = text.match(/[\p{L}\p{N}'’-]+/gu)?.length ?? 0
  return marks >= TOO_MANY_ERRORS_MIN && marks > words / 4
}
export const TOO_MANY_ERRORS_MIN = 15
