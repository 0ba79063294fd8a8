/**
 * Sentences with gaps (fill_words, seed 001 §3): gaps are written in double square brackets, e.g.
 * `The [[sun]] rises in the [[east]].` The stored phrase is a list of items: plain text, or a `select` gap.
 */
export interface PhraseItem {
  type: 'text' | 'select'
  value: string
}

export type SentenceProblem = 'nested' | 'unclosed'

/** The sentence's structure problem (nested or unclosed brackets), or null. */
export function sentenceProblem(sentence: string): SentenceProblem | null {
  let open = false
  for (let i = 0; i < sentence.length; i++) {
    const two = sentence.slice(i, i + 2)
    if (two === '[[') {
      if (open) return 'nested'
      open = true
      i++
    } else if (two === ']]') {
      if (!open) return 'unclosed'
      open = false
      i++
    }
  }
  return open ? 'unclosed' : null
}

/** The items of a well-formed sentence (check sentenceProblem first). */
export function parsePhrase(sentence: string): PhraseItem[] {
  const items: PhraseItem[] = []
  const re = /\[\[([\s\S]*?)\]\]/g
  let last = 0
  for (let m = re.exec(sentence); m; m = re.exec(sentence)) {
    if (m.index > last) items.push({ type: 'text', value: sentence.slice(last, m.index) })
    items.push({ type: 'select', value: m[1].trim() })
    last = m.index + m[0].length
  }
  if (last < sentence.length) items.push({ type: 'text', value: sentence.slice(last) })
  return items
}

/** Words of a phrase (cloud): split on spaces, empty pieces dropped. */
export function wordsOf(phrase: string): string[] {
  return phrase.split(/\s+/).filter(Boolean)
}

/** Comparison key of two answers: case and surrounding spaces do not count. */
export const sameAnswer = (a: string, b: string) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase()
