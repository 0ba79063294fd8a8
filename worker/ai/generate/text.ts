import { wordCount } from '#shared/schemas/lesson/content'
import { sentences, tokenize } from '../retrieval'

/**
 * Text tools of the generator (issue 18): the sources cut into titled sections and sentences, sentence salience, and
 * the word-range fitting every length rule of seed 001 §9 goes through (for the local engine and for a provider's
 * answer alike). Deterministic: ties keep the source's order.
 */

/** A part of the sources: a heading (or the page/slide it came from) and its text. */
export interface SourceSection {
  title: string
  text: string
}

/** A sentence of the sources, where it sits, and how salient it is. */
export interface Sentence {
  text: string
  section: number
  index: number
  words: number
  score: number
}

/** Plain text of a generated HTML fragment (what the length rules count). */
export const plainOf = (html: string) =>
  html
    .replace(/<\/(p|li|h[1-6])>/g, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim()

export const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/** A line that reads as a heading: short, no end punctuation, followed by text. */
const isHeading = (line: string) => line.length >= 2 && line.length <= 80 && !/[.!?:;,…]$/.test(line) && wordCount(line) <= 12 && /\p{L}/u.test(line)

/**
 * A PDF page's lines joined back into paragraphs: a PDF breaks every line at the column's edge, and a line break ends
 * a sentence for the generator. A line that does not end a sentence is joined to the next one, unless it reads as a
 * heading (short, no end punctuation, no sentence inside, not itself a joined paragraph) and the next line starts
 * with a capital: headings stay on their own line, so sections are still cut at them.
 */
export function unwrapLines(text: string): string {
  const out: { text: string; joined: boolean }[] = []
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    const last = out[out.length - 1]
    const open = last && line && last.text && !/[.!?…:]$/.test(last.text)
    const heading = last && !last.joined && isHeading(last.text) && !/[.!?…]\s/.test(last.text) && !/^[\p{Ll}\d(]/u.test(line)
    if (open && !heading) last.text = `${last.text} ${line}`
    else out.push({ text: line, joined: false })
    if (open && !heading) last.joined = true
  }
  return out.map((l) => l.text).join('\n')
}

/**
 * A text cut into sections at its headings (short lines without end punctuation). A text with no headings is cut
 * every `perSection` sentences, each titled by its first words.
 */
export function sectionsOfText(text: string, fallbackTitle: string, perSection = 6): SourceSection[] {
  const lines = text
    .split(/\n/)
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
  const out: SourceSection[] = []
  let current: SourceSection | null = null
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (isHeading(line) && i + 1 < lines.length && !isHeading(lines[i + 1])) {
      current = { title: line, text: '' }
      out.push(current)
    } else {
      if (!current) {
        current = { title: '', text: '' }
        out.push(current)
      }
      current.text += (current.text ? '\n' : '') + line
    }
  }
  const kept = out.filter((s) => wordCount(s.text) > 0)
  if (kept.length > 1 || (kept.length === 1 && kept[0].title)) return kept.map((s, i) => ({ title: s.title || `${fallbackTitle} ${i + 1}`, text: s.text }))
  // No headings: groups of sentences, titled by their first words.
  const all = sentences(text)
  const groups: SourceSection[] = []
  for (let i = 0; i < all.length; i += perSection) {
    const chunk = all.slice(i, i + perSection)
    groups.push({ title: titleFrom(chunk[0] ?? fallbackTitle), text: chunk.join(' ') })
  }
  return groups
}

/** A short title from a sentence: its first words (at most 6), without end punctuation. */
export function titleFrom(sentence: string): string {
  const words = sentence.replace(/[.!?…:;,]+$/, '').split(/\s+/)
  return words.slice(0, 6).join(' ') + (words.length > 6 ? '…' : '')
}

/** Term frequencies over the whole source (stemmed tokens). */
export function termFrequencies(sections: SourceSection[]): Map<string, number> {
  const tf = new Map<string, number>()
  for (const s of sections) for (const t of tokenize(s.text)) tf.set(t, (tf.get(t) ?? 0) + 1)
  return tf
}

/** Every sentence of the sections with its salience: the frequency of its terms across the source, per term. */
export function rankedSentences(sections: SourceSection[], boost?: (s: string) => number): Sentence[] {
  const tf = termFrequencies(sections)
  const out: Sentence[] = []
  sections.forEach((sec, si) => {
    for (const text of sentences(sec.text)) {
      const terms = tokenize(text)
      const words = wordCount(text)
      if (!words) continue
      const base = terms.reduce((n, t) => n + (tf.get(t) ?? 0), 0) / Math.sqrt(Math.max(terms.length, 1))
      out.push({ text, section: si, index: out.length, words, score: base * (boost?.(text) ?? 1) })
    }
  })
  return out
}

/** Sentences by salience, most salient first (ties in source order). */
export const bySalience = (xs: Sentence[]) => [...xs].sort((a, b) => b.score - a.score || a.index - b.index)

/** The first `n` words of a text, marked "…" when cut. */
export function firstWords(text: string, n: number): string {
  if (n <= 0) return ''
  const re = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu
  let count = 0
  for (const m of text.matchAll(re)) {
    count++
    if (count === n) {
      const end = m.index + m[0].length
      return end >= text.trimEnd().length - 1 ? text.trim() : `${text.slice(0, end).trimEnd()}…`
    }
  }
  return text.trim()
}

/**
 * Sentences fitted to a word range: taken in the given order while they fit under `max`, until `min` is reached;
 * when no whole sentence closes the gap, the next one is cut to the words still needed (marked "…"). Answers the
 * texts in the order given to `order` (source order by default). Short of words, it answers what there is.
 */
export function fitSentences(
  candidates: Sentence[],
  [min, max]: readonly [number, number],
  order: (a: Sentence, b: Sentence) => number = (a, b) => a.index - b.index,
): string[] {
  const chosen: { s: Sentence; text: string }[] = []
  let total = 0
  for (const s of candidates) {
    if (total >= min) break
    if (total + s.words <= max) {
      chosen.push({ s, text: s.text })
      total += s.words
    }
  }
  // No whole sentence closes the gap: the next ones are cut to the words still needed.
  const used = new Set(chosen.map((c) => c.s.index))
  for (const next of candidates) {
    if (total >= min) break
    if (used.has(next.index)) continue
    const text = firstWords(next.text, Math.min(max - total, next.words))
    chosen.push({ s: next, text })
    total += wordCount(text)
  }
  return chosen.sort((a, b) => order(a.s, b.s)).map((c) => c.text)
}

/** A text cut to at most `max` words (whole sentences first, the last one cut when needed). */
export function trimWords(text: string, max: number): string {
  if (wordCount(text) <= max) return text
  const parts = sentences(text)
  let out = ''
  for (const p of parts) {
    const next = out ? `${out} ${p}` : p
    if (wordCount(next) > max) return out ? (wordCount(out) >= max * 0.9 ? out : `${out} ${firstWords(p, max - wordCount(out))}`) : firstWords(p, max)
    out = next
  }
  return out
}

/** Texts split into `n` groups of about equal words, order kept (each group one paragraph). */
export function intoParagraphs(texts: string[], n: number): string[] {
  let parts = [...texts]
  // Fewer sentences than paragraphs: the longest ones are cut in two at a word boundary.
  while (parts.length < n) {
    const i = parts.reduce((best, p, j) => (wordCount(p) > wordCount(parts[best]) ? j : best), 0)
    const words = parts[i].split(/\s+/)
    if (words.length < 2) break
    const half = Math.ceil(words.length / 2)
    parts = [...parts.slice(0, i), words.slice(0, half).join(' '), words.slice(half).join(' '), ...parts.slice(i + 1)]
  }
  const out: string[] = []
  let i = 0
  for (let k = 0; k < n && i < parts.length; k++) {
    const left = n - k
    const remaining = parts.slice(i).reduce((w, p) => w + wordCount(p), 0)
    const target = remaining / left
    const group = [parts[i++]]
    let words = wordCount(group[0])
    // Take more while under this paragraph's share, leaving at least one sentence for each later paragraph.
    while (i < parts.length && parts.length - i > left - 1 && words + wordCount(parts[i]) / 2 <= target) {
      words += wordCount(parts[i])
      group.push(parts[i++])
    }
    if (k === n - 1) while (i < parts.length) group.push(parts[i++])
    out.push(group.join(' '))
  }
  return out
}

/** Most frequent terms of the source as they are written (a surface form per stem), at least 4 letters. */
export function keywords(sections: SourceSection[], limit = 30): string[] {
  const tf = termFrequencies(sections)
  const surface = new Map<string, string>()
  for (const s of sections)
    for (const w of s.text.split(/[^\p{L}\p{N}'-]+/u)) {
      if (w.length < 4 || /\d/.test(w)) continue
      const t = tokenize(w)[0]
      if (t && !surface.has(t)) surface.set(t, w.toLowerCase())
    }
  return [...tf.entries()]
    .filter(([t]) => surface.has(t) && t.length >= 4)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([t]) => surface.get(t)!)
}

export const totalWords = (sections: SourceSection[]) => sections.reduce((n, s) => n + wordCount(s.text), 0)
