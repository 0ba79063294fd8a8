/** The word filter's matching rule, shared by the API (which enforces it) and the console (which previews it). */
export interface FilterResult {
  /** The text with every filtered sentence (and refused link) masked with `*`, spaces kept. */
  text: string
  /** The filtered sentences and links found, as written in the text. */
  matches: string[]
}

/** Lowercase without accents, with a map from each folded character back to its index in the original text. */
function fold(text: string): { folded: string; index: number[] } {
  let folded = ''
  const index: number[] = []
  let i = 0
  for (const ch of text) {
    const f = ch.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
    for (const c of f) {
      folded += c
      index.push(i)
    }
    i += ch.length
  }
  return { folded, index }
}

const wordChar = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}]/u.test(c)
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/giu

/**
 * Filters user text (seed 002 §3 word filter). Sentences match whole words, ignoring case and accents; the realm's
 * sentences and the platform's default ones both apply. When the realm has `word_filter_links` on, links whose host
 * is not an exemption domain (or below one) are filtered too. Callers decide what a match means: posted text is
 * stored masked; identity fields (a user's name) are refused.
 */
export function filterText(
  text: string,
  sentences: readonly string[],
  links: { on: boolean; exempt: readonly string[] } = { on: false, exempt: [] },
): FilterResult {
  const { folded, index } = fold(text)
  const masked = [...text]
  // Positions into `masked` are by code point; `index` holds UTF-16 offsets, so map those to code points.
  const cpAt = new Map<number, number>()
  let cp = 0
  for (let u = 0; u < text.length;) {
    cpAt.set(u, cp++)
    u += text.codePointAt(u)! > 0xffff ? 2 : 1
  }
  const matches: string[] = []
  const mask = (from: number, to: number) => {
    for (let u = from; u < to; u++) {
      const p = cpAt.get(u)
      if (p !== undefined && !/\s/u.test(masked[p])) masked[p] = '*'
    }
  }
  for (const sentence of sentences) {
    const needle = fold(sentence).folded.trim()
    if (!needle) continue
    for (let at = folded.indexOf(needle); at >= 0; at = folded.indexOf(needle, at + 1)) {
      const end = at + needle.length
      if (wordChar(folded[at - 1]) || wordChar(folded[end])) continue
      const from = index[at]
      const to = index[end - 1] + 1
      matches.push(text.slice(from, to))
      mask(from, to)
    }
  }
  if (links.on) {
    for (const m of text.matchAll(LINK)) {
      const host = hostOf(m[0])
      if (host && links.exempt.some((d) => host === d || host.endsWith(`.${d}`))) continue
      matches.push(m[0])
      mask(m.index, m.index + m[0].length)
    }
  }
  return { text: masked.join(''), matches }
}

function hostOf(link: string): string | null {
  try {
    return new URL(/^https?:\/\//i.test(link) ? link : `https://${link}`).hostname.toLowerCase()
  } catch {
    return null
  }
}
