/**
 * A Hunspell speller that strips affixes when it checks a word (Hunspell's own algorithm) instead of expanding every
 * dictionary word with every affix when it is built (nspell's): nspell builds the Portuguese dictionary (312,000 stems,
 * 25,770 suffix rules) in more than five minutes and 1.2 GB, which no Worker has, while this one reads it in well under
 * a second (README "Essay checker, skill grades and marks"). It reads the `.aff`/`.dic` pair of the dictionary-pt,
 * dictionary-en and dictionary-es packages and covers what they use for plain words: SFX and PFX rules with their
 * conditions and cross products, one level of suffix continuation, FLAG (single, UTF-8, long, num), NEEDAFFIX,
 * FORBIDDENWORD, ONLYINCOMPOUND, ICONV, KEEPCASE, and TRY, REP and MAP for suggestions. Compounding is not checked
 * (words with digits, such as "1st", are skipped by the caller).
 */

interface Affix {
  /** Characters removed from the stem before adding (`0` in the file: none). */
  strip: string
  /** Characters added to the stem. */
  add: string
  /** The stem's condition (a regular expression anchored at the stem's end, or start for prefixes); null: any. */
  condition: RegExp | null
  flag: string
  cross: boolean
  /** Continuation flags of the affix (a suffix that takes another suffix). */
  next: string[]
}

export interface Speller {
  correct(word: string): boolean
  suggest(word: string): string[]
}

const conditionCache = new Map<string, RegExp | null>()
function condition(text: string, suffix: boolean): RegExp | null {
  if (text === '.' || text === '') return null
  const key = `${suffix ? 's' : 'p'}${text}`
  let re = conditionCache.get(key)
  if (re === undefined) {
    // Hunspell's conditions are characters, `.` and bracket classes: a regular expression already.
    try {
      re = new RegExp(suffix ? `${text}$` : `^${text}`, 'u')
    } catch {
      re = null
    }
    conditionCache.set(key, re)
  }
  return re
}

function splitFlags(text: string, mode: string): string[] {
  if (!text) return []
  if (mode === 'long') return text.match(/../gu) ?? []
  if (mode === 'num') return text.split(',')
  return [...text]
}

/** Builds a speller from a dictionary's affix and word files (their text). */
export function hunspell(affText: string, dicText: string): Speller {
  let flagMode = 'char'
  let needAffix = ''
  let forbidden = ''
  let onlyInCompound = ''
  let keepCase = ''
  let tryChars = ''
  const iconv: [string, string][] = []
  const rep: [string, string][] = []
  const maps: string[][] = []
  const suffixes = new Map<string, Affix[]>()
  const prefixes = new Map<string, Affix[]>()
  /** Suffix rules by flag (for continuation classes). */
  const suffixesByFlag = new Map<string, Affix[]>()
  let maxSuffix = 0
  let maxPrefix = 0
  const headers = new Map<string, boolean>()

  for (const raw of affText.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const parts = line.split(/\s+/)
    const [key] = parts
    if (key === 'FLAG') flagMode = parts[1] === 'long' ? 'long' : parts[1] === 'num' ? 'num' : 'char'
    else if (key === 'NEEDAFFIX') needAffix = parts[1]
    else if (key === 'FORBIDDENWORD') forbidden = parts[1]
    else if (key === 'ONLYINCOMPOUND') onlyInCompound = parts[1]
    else if (key === 'KEEPCASE') keepCase = parts[1]
    else if (key === 'TRY') tryChars = parts[1] ?? ''
    else if (key === 'ICONV' && parts.length === 3) iconv.push([parts[1], parts[2]])
    else if (key === 'REP' && parts.length === 3) rep.push([parts[1].replace(/_/g, ' '), parts[2].replace(/_/g, ' ')])
    else if (key === 'MAP' && parts.length === 2 && !/^\d+$/.test(parts[1])) maps.push([...parts[1]])
    else if (key === 'SFX' || key === 'PFX') {
      const suffix = key === 'SFX'
      if (parts.length === 4 && !headers.has(`${key}${parts[1]}`)) {
        headers.set(`${key}${parts[1]}`, parts[2] === 'Y')
        continue
      }
      if (parts.length < 4) continue
      const [, flag, strip, addText, cond = '.'] = parts
      const [add, nextText = ''] = addText.split('/')
      const affix: Affix = {
        strip: strip === '0' ? '' : strip,
        add: add === '0' ? '' : add,
        condition: condition(cond, suffix),
        flag,
        cross: headers.get(`${key}${flag}`) ?? false,
        next: splitFlags(nextText, flagMode),
      }
      const index = suffix ? suffixes : prefixes
      const list = index.get(affix.add)
      if (list) list.push(affix)
      else index.set(affix.add, [affix])
      if (suffix) {
        maxSuffix = Math.max(maxSuffix, affix.add.length)
        const byFlag = suffixesByFlag.get(flag)
        if (byFlag) byFlag.push(affix)
        else suffixesByFlag.set(flag, [affix])
      } else maxPrefix = Math.max(maxPrefix, affix.add.length)
    }
  }

  // The words: "stem/flags" (a first line with the count; morphological fields after a tab or space are ignored).
  const words = new Map<string, string>()
  const lines = dicText.split(/\r?\n/)
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]
    if (!line) continue
    const end = line.search(/[\t ]/)
    const entry = end < 0 ? line : line.slice(0, end)
    const slash = entry.indexOf('/')
    const stem = slash < 0 ? entry : entry.slice(0, slash)
    const flags = slash < 0 ? '' : entry.slice(slash + 1)
    const had = words.get(stem)
    words.set(stem, had === undefined ? flags : had + flags)
  }
  const has = (flags: string, flag: string) => (flagMode === 'char' ? flags.includes(flag) : splitFlags(flags, flagMode).includes(flag))

  /** A stem with a flag (or, flag null, a word standing alone). */
  function stemWith(stem: string, flag: string | null): boolean {
    const flags = words.get(stem)
    if (flags === undefined) return false
    if (forbidden && has(flags, forbidden)) return false
    if (flag === null) return !(needAffix && has(flags, needAffix)) && !(onlyInCompound && has(flags, onlyInCompound))
    return has(flags, flag)
  }

  /** The word less one suffix; `needs` a prefix flag the stem must also carry (cross product). */
  function bySuffix(word: string, needs: string | null): boolean {
    for (let n = Math.min(maxSuffix, word.length - 1); n >= 0; n--) {
      const rules = suffixes.get(n ? word.slice(word.length - n) : '')
      if (!rules) continue
      const base = word.slice(0, word.length - n)
      for (const r of rules) {
        if (needs && !r.cross) continue
        const stem = base + r.strip
        if (!stem || (r.condition && !r.condition.test(stem))) continue
        if (stemWith(stem, r.flag) && (!needs || stemWith(stem, needs))) return true
        // Two suffixes: the stem carries an outer suffix whose continuation allows this one.
        if (!needs && bySecondSuffix(stem, r.flag)) return true
      }
    }
    return false
  }

  /** `word` is a stem + a suffix whose continuation flags hold `inner`. */
  function bySecondSuffix(word: string, inner: string): boolean {
    for (let n = Math.min(maxSuffix, word.length - 1); n >= 0; n--) {
      const rules = suffixes.get(n ? word.slice(word.length - n) : '')
      if (!rules) continue
      const base = word.slice(0, word.length - n)
      for (const r of rules) {
        if (!r.next.includes(inner)) continue
        const stem = base + r.strip
        if (stem && (!r.condition || r.condition.test(stem)) && stemWith(stem, r.flag)) return true
      }
    }
    return false
  }

  function byPrefix(word: string): boolean {
    for (let n = Math.min(maxPrefix, word.length - 1); n >= 1; n--) {
      const rules = prefixes.get(word.slice(0, n))
      if (!rules) continue
      const rest = word.slice(n)
      for (const r of rules) {
        const stem = r.strip + rest
        if (r.condition && !r.condition.test(stem)) continue
        if (stemWith(stem, r.flag)) return true
        if (r.cross && bySuffix(stem, r.flag)) return true
      }
    }
    return false
  }

  const known = (w: string) => stemWith(w, null) || bySuffix(w, null) || byPrefix(w)

  function normalise(word: string): string {
    let out = word
    for (const [from, to] of iconv) out = out.split(from).join(to)
    return out
  }

  function correct(input: string): boolean {
    const word = normalise(input)
    if (!word) return true
    if (known(word)) return true
    const lower = word.toLocaleLowerCase()
    const isCapitalised = word[0] !== word[0].toLocaleLowerCase() && word.slice(1) === word.slice(1).toLocaleLowerCase()
    const isUpper = word === word.toLocaleUpperCase() && word !== lower
    if (isCapitalised || isUpper) {
      const lowerFlags = words.get(lower)
      if (keepCase && lowerFlags !== undefined && has(lowerFlags, keepCase)) return false
      if (known(lower)) return true
    }
    if (isUpper) {
      const title = lower[0].toLocaleUpperCase() + lower.slice(1)
      if (known(title)) return true
    }
    return false
  }

  /**
   * Up to five right words near a wrong one: the dictionary's usual confusions (REP) and letters of a kind (MAP:
   * accents) first, then one edit (swap or deletion, then replacement, then insertion of a TRY letter), each kind
   * ranked by the length of the start it keeps ("muinto" → "muito" before "minto"); a split into two words only when
   * nothing else is found.
   */
  function suggest(input: string): string[] {
    const word = normalise(input)
    const lower = word.toLocaleLowerCase()
    const seen = new Set<string>([lower])
    const likely: string[] = []
    // Swapped or doubled letters are the commonest slips, then a wrong letter, then a missing one.
    const [swapsAndExtras, replaced, inserted]: string[][] = [[], [], []]
    const consider = (candidate: string, into: string[]) => {
      if (seen.has(candidate) || into.length >= 40) return
      seen.add(candidate)
      if (correct(candidate)) into.push(candidate)
    }
    for (const [from, to] of rep) {
      for (let at = lower.indexOf(from); at >= 0; at = lower.indexOf(from, at + 1)) {
        const candidate = lower.slice(0, at) + to + lower.slice(at + from.length)
        if (!candidate.includes(' ')) consider(candidate, likely)
      }
    }
    const chars = [...lower]
    const edited = (i: number, remove: number, ...add: string[]) => [...chars.slice(0, i), ...add, ...chars.slice(i + remove)].join('')
    for (let i = 0; i < chars.length; i++)
      for (const group of maps)
        if (group.includes(chars[i]))
          for (const other of group) if (other !== chars[i] && other === other.toLocaleLowerCase()) consider(edited(i, 1, other), likely)
    const alphabet = [...new Set([...(tryChars || 'abcdefghijklmnopqrstuvwxyz')].map((c) => c.toLocaleLowerCase()))]
    for (let i = 0; i < chars.length - 1; i++) consider(edited(i, 2, chars[i + 1], chars[i]), swapsAndExtras)
    for (let i = 0; i < chars.length; i++) consider(edited(i, 1), swapsAndExtras)
    for (let i = 0; i < chars.length; i++) for (const c of alphabet) consider(edited(i, 1, c), replaced)
    for (let i = 0; i <= chars.length; i++) for (const c of alphabet) consider(edited(i, 0, c), inserted)
    const kept = (w: string) => {
      let n = 0
      while (n < w.length && w[n] === lower[n]) n++
      return n
    }
    const ranked = (list: string[]) => list.sort((a, b) => kept(b) - kept(a))
    let out = [...likely, ...ranked(swapsAndExtras), ...ranked(replaced), ...ranked(inserted)].slice(0, 5)
    if (!out.length) {
      const splits: string[] = []
      for (let i = 1; i < chars.length; i++) {
        const [a, b] = [chars.slice(0, i).join(''), chars.slice(i).join('')]
        if (correct(a) && correct(b)) splits.push(`${a} ${b}`)
      }
      out = splits.slice(0, 5)
    }
    // Keep the word's capital first letter.
    const capital = word[0] !== word[0]?.toLocaleLowerCase()
    return out.map((s) => (capital ? s[0].toLocaleUpperCase() + s.slice(1) : s))
  }

  return { correct, suggest }
}
