/**
 * The essay's plain writing rules (issue 17, seed 001 §5 "Essay with uncorrected errors asks confirmation before
 * submit"), one rule set for the student's device (the slips listed under the essay as it is typed) and the server's
 * language checker (the "Online Check", worker/lib/essay-checker.ts, which adds spelling): rules that hold in
 * Portuguese, English and Spanish. They find likely slips, not every error; the delivery asks again while any is left.
 */
export type EssayIssueKind = 'repeated_word' | 'lowercase_start' | 'space_before_punctuation' | 'double_space' | 'no_final_punctuation'

/** The essay error category (seed 001 §3) each rule's marks take. */
export const ISSUE_CATEGORY: Record<EssayIssueKind, 'orthography' | 'syntax' | 'others'> = {
  repeated_word: 'syntax',
  lowercase_start: 'orthography',
  space_before_punctuation: 'others',
  double_space: 'others',
  no_final_punctuation: 'others',
}

/** A mark of the server's language checker (worker/lib/essay-checker.ts), as the apply screen shows it. */
export interface CheckMark {
  category: 'orthography' | 'morphology' | 'syntax' | 'semantics' | 'language' | 'others' | 'note'
  /** Where it is in the checked text (UTF-16 units, as LanguageTool counts) and the words there. */
  offset: number
  length: number
  excerpt: string
  /** The rule: `spelling`, one of the device's rules, or `lt:<LanguageTool rule id>`. */
  rule: string
  /** LanguageTool's message (in the essay's language); empty for local rules (the screens say it from `rule`). */
  message: string
  suggestions: string[]
}

export interface EssayIssue {
  kind: EssayIssueKind
  /** The piece of text the issue is about (for the student to find it). */
  text: string
  /** Where that piece starts in the text given (UTF-16 units). */
  offset: number
}

const WORD = /[\p{L}\p{N}'’-]+/gu

/** The likely slips of an essay's text, in the order they appear (per kind). Empty text has none. */
export function essayIssues(text: string): EssayIssue[] {
  const body = text.trim()
  if (!body) return []
  const lead = text.length - text.trimStart().length
  const out: EssayIssue[] = []
  const add = (kind: EssayIssueKind, piece: string, at: number) => out.push({ kind, text: piece, offset: lead + at })
  // The same word twice in a row ("que que", "the the"), case ignored; numbers may repeat.
  const words = [...body.matchAll(WORD)]
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1], words[i]]
    const between = body.slice(a.index! + a[0].length, b.index)
    if (/^\s+$/.test(between) && a[0].toLocaleLowerCase() === b[0].toLocaleLowerCase() && !/^\d+$/.test(a[0]))
      add('repeated_word', body.slice(a.index, b.index! + b[0].length), a.index!)
  }
  // A sentence (the text's start, or after . ! ? and a space, or a new paragraph) starting with a lowercase letter.
  for (const m of body.matchAll(/(?:^|[.!?]\s+|\n\s*)(\p{Ll}[\p{L}'’-]*)/gu)) add('lowercase_start', m[1], m.index! + m[0].length - m[1].length)
  for (const m of body.matchAll(/(\S+)(\s+)([,.;:!?])(?!\S*\d)/gu)) add('space_before_punctuation', m[0], m.index!)
  for (const m of body.matchAll(/(\S+) {2,}(\S+)/gu)) add('double_space', m[0], m.index!)
  if (!/[.!?…"”»)]$/u.test(body)) {
    const tail = body.slice(-20).trimStart()
    add('no_final_punctuation', tail, body.length - tail.length)
  }
  return out
}
