import type { SourceRef } from '#shared/schemas/ai'

/**
 * Embeddings-free retrieval (docs ai.md): Okapi BM25 over a corpus of text chunks, in the Worker, deterministic.
 * Every adapter retrieves with it (the local engine quotes the passages; a model adapter is given them as its
 * grounding), so which passage an answer came from is known whatever the provider.
 */

/** A piece of a source's text, as stored for retrieval. */
export interface Chunk {
  id: string
  source: string
  title: string
  text: string
}

/** A retrieved chunk with its score. */
export interface Hit {
  chunk: Chunk
  score: number
}

// Words that carry no topic in the three interface languages; dropping them keeps "o que é" from matching everything.
const STOPWORDS = new Set(
  (
    'a o as os um uma uns umas de do da dos das no na nos nas em ao aos à às por para pelo pela pelos pelas com sem sob ' +
    'e ou mas que se é são foi ser era como qual quais quando onde quem porque porquê isso isto esse essa este esta ' +
    'ele ela eles elas eu tu você voce vocês nós nos me te lhe seu sua seus suas meu minha mais menos muito já não nao sim ' +
    'the an and or but of to in on at by for with from is are was were be been being it its this that these those ' +
    'what which who whom when where why how do does did can could would should will shall may might i you he she we they ' +
    'el la los las un una unos unas del al en por para con sin y o pero que es son fue ser como cual cuales cuando donde ' +
    'quien porque eso esto ese esa este esta lo le les su sus mi mis tu tus muy ya no si sí hay tiene tienen'
  ).split(/\s+/),
)

/** Lowercase, accents folded, split on anything but letters and digits, stopwords and one-letter tokens dropped, plurals trimmed. */
export function tokenize(text: string): string[] {
  const folded = text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
  const out: string[] = []
  for (const word of folded.split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 2 || STOPWORDS.has(word)) continue
    out.push(stem(word))
  }
  return out
}

/** A light, language-neutral stemmer: plural `-s`/`-es` endings trimmed on longer words (deterministic, no dictionary). */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('es')) return word.slice(0, -2)
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1)
  return word
}

const K1 = 1.2
const B = 0.75

/** A BM25 index of a corpus; build once per corpus, search many times. */
export class Bm25Index {
  private readonly docs: { chunk: Chunk; tf: Map<string, number>; length: number }[] = []
  private readonly df = new Map<string, number>()
  private readonly avgLength: number

  constructor(chunks: readonly Chunk[]) {
    let total = 0
    for (const chunk of chunks) {
      const tf = new Map<string, number>()
      const tokens = tokenize(`${chunk.title} ${chunk.text}`)
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1)
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1)
      this.docs.push({ chunk, tf, length: tokens.length })
      total += tokens.length
    }
    this.avgLength = this.docs.length ? total / this.docs.length : 0
  }

  get size(): number {
    return this.docs.length
  }

  /** The best `limit` chunks for `query` with a positive score, best first; ties keep corpus order. */
  search(query: string, limit = 5): Hit[] {
    const terms = [...new Set(tokenize(query))]
    if (!terms.length || !this.docs.length) return []
    const n = this.docs.length
    const idf = terms.map((t) => {
      const df = this.df.get(t) ?? 0
      return df ? Math.log(1 + (n - df + 0.5) / (df + 0.5)) : 0
    })
    const hits: Hit[] = []
    for (const doc of this.docs) {
      let score = 0
      for (let i = 0; i < terms.length; i++) {
        const tf = doc.tf.get(terms[i])
        if (!tf) continue
        score += (idf[i] * (tf * (K1 + 1))) / (tf + K1 * (1 - B + (B * doc.length) / (this.avgLength || 1)))
      }
      if (score > 0) hits.push({ chunk: doc.chunk, score })
    }
    // Stable: equal scores keep the corpus order, so the same corpus always answers the same way.
    return hits.sort((a, b) => b.score - a.score).slice(0, limit)
  }
}

/** Sentences of a text (end punctuation or line breaks), trimmed, empty ones dropped. */
export function sentences(text: string): string[] {
  return text
    .replace(/\s*\n\s*\n\s*/g, '\n')
    .split(/(?<=[.!?…])\s+|\n/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 1)
}

/**
 * The sentences of the hits that answer `query` best, as quotes with their source: each sentence scored by the
 * query terms it holds (weighted by the hit's score), at most `max` quotes, in the order of their score. A sentence
 * holding none of the query's terms is never quoted.
 */
export function bestPassages(query: string, hits: Hit[], max = 2): SourceRef[] {
  const terms = new Set(tokenize(query))
  const scored: { ref: SourceRef; rank: number; order: number }[] = []
  let order = 0
  for (const hit of hits) {
    for (const sentence of sentences(hit.chunk.text)) {
      const words = tokenize(sentence)
      const matched = new Set(words.filter((w) => terms.has(w))).size
      if (!matched) continue
      // Coverage of the query first, then the hit's own score; long sentences are not favoured for their length.
      const rank = (matched / terms.size) * 10 + hit.score / (1 + Math.log(1 + words.length))
      scored.push({
        ref: { id: hit.chunk.id, source: hit.chunk.source, title: hit.chunk.title, quote: sentence, score: round(hit.score) },
        rank,
        order: order++,
      })
    }
  }
  scored.sort((a, b) => b.rank - a.rank || a.order - b.order)
  const seen = new Set<string>()
  const out: SourceRef[] = []
  for (const s of scored) {
    if (seen.has(s.ref.quote)) continue
    seen.add(s.ref.quote)
    out.push(s.ref)
    if (out.length === max) break
  }
  return out
}

const round = (x: number) => Math.round(x * 1000) / 1000
