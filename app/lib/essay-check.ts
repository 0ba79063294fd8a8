/**
 * The essay's checks the student's device runs without any provider (issue 17, seed 001 §5 "Essay with uncorrected
 * errors asks confirmation before submit"): a few plain writing rules that hold in Portuguese, English and Spanish.
 * They find likely slips, not every error; the delivery asks again while any is left. (The realm's language checker —
 * the "Online Check" — is a later part of the issue; its marks would join these.)
 */
export type EssayIssueKind = 'repeated_word' | 'lowercase_start' | 'space_before_punctuation' | 'double_space' | 'no_final_punctuation'

export interface EssayIssue {
  kind: EssayIssueKind
  /** The piece of text the issue is about (for the student to find it). */
  text: string
}

const WORD = /[\p{L}\p{N}'’-]+/gu

/** The likely slips of an essay's text, in the order they appear (per kind). Empty text has none. */
export function essayIssues(text: string): EssayIssue[] {
  const body = text.trim()
  if (!body) return []
  const out: EssayIssue[] = []
  // The same word twice in a row ("que que", "the the"), case ignored; numbers may repeat.
  const words = [...body.matchAll(WORD)]
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1], words[i]]
    const between = body.slice(a.index! + a[0].length, b.index)
    if (/^\s+$/.test(between) && a[0].toLocaleLowerCase() === b[0].toLocaleLowerCase() && !/^\d+$/.test(a[0]))
      out.push({ kind: 'repeated_word', text: `${a[0]} ${b[0]}` })
  }
  // A sentence (the text's start, or after . ! ? and a space, or a new paragraph) starting with a lowercase letter.
  for (const m of body.matchAll(/(?:^|[.!?]\s+|\n\s*)(\p{Ll}[\p{L}'’-]*)/gu)) out.push({ kind: 'lowercase_start', text: m[1] })
  for (const m of body.matchAll(/(\S+)\s+([,.;:!?])(?!\S*\d)/gu)) out.push({ kind: 'space_before_punctuation', text: `${m[1]} ${m[2]}` })
  for (const m of body.matchAll(/(\S+) {2,}(\S+)/gu)) out.push({ kind: 'double_space', text: `${m[1]}  ${m[2]}` })
  if (!/[.!?…"”»)]$/u.test(body)) out.push({ kind: 'no_final_punctuation', text: body.slice(-20).trimStart() })
  return out
}
