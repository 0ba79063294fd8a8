import { filterText, type FilterResult } from '#shared/word-filter'
import { globalConfigFrom, globalConfigRead } from './global-config'

export { filterText }

/** The realm's word-filter sentences, sorted. */
export async function getWordFilter(db: D1Database, realm: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT sentence FROM realm_word_filter WHERE realm = ? ORDER BY sentence').bind(realm).all<{ sentence: string }>()
  return results.map((r) => r.sentence)
}

/** Statements replacing the realm's word filter with `sentences`. */
export function setWordFilterStatements(db: D1Database, realm: string, sentences: string[]): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM realm_word_filter WHERE realm = ?').bind(realm),
    ...sentences.map((s) => db.prepare('INSERT INTO realm_word_filter (realm, sentence) VALUES (?, ?)').bind(realm, s)),
  ]
}

export async function getExemptionDomains(db: D1Database, realm: string): Promise<string[]> {
  const { results } = await db.prepare('SELECT domain FROM realm_exemption_domain WHERE realm = ? ORDER BY domain').bind(realm).all<{ domain: string }>()
  return results.map((r) => r.domain)
}

export function setExemptionStatements(db: D1Database, realm: string, domains: string[]): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM realm_exemption_domain WHERE realm = ?').bind(realm),
    ...domains.map((d) => db.prepare('INSERT INTO realm_exemption_domain (realm, domain) VALUES (?, ?)').bind(realm, d)),
  ]
}

/**
 * The reads a word-filter check needs (the realm's sentences, the platform's defaults, the realm's link rule and
 * exempt domains), as statements for one batch, possibly with the caller's own reads.
 */
export function wordFilterReads(db: D1Database, realm: string): D1PreparedStatement[] {
  return [
    db.prepare('SELECT sentence FROM realm_word_filter WHERE realm = ? ORDER BY sentence').bind(realm),
    globalConfigRead(db),
    db.prepare('SELECT word_filter_links FROM realm WHERE code = ?').bind(realm),
    db.prepare('SELECT domain FROM realm_exemption_domain WHERE realm = ? ORDER BY domain').bind(realm),
  ]
}

/** The word filter made of the results of wordFilterReads (in their order). */
export function wordFilterFrom(results: D1Result[]): (text: string) => FilterResult {
  const [sentences, global, links, exempt] = results.map((r) => r.results as Record<string, unknown>[])
  const words = [...sentences.map((r) => String(r.sentence)), ...globalConfigFrom(global[0] as Parameters<typeof globalConfigFrom>[0]).default_word_filter]
  const options = { on: links[0]?.word_filter_links === 1, exempt: exempt.map((r) => String(r.domain)) }
  return (text) => (text ? filterText(text, words, options) : { text, matches: [] })
}

/** Filters user text with the realm's word filter, the platform's default sentences and its link rule (one batch). */
export async function checkWordFilter(db: D1Database, realm: string, text: string): Promise<FilterResult> {
  if (!text) return { text, matches: [] }
  return wordFilterFrom(await db.batch(wordFilterReads(db, realm)))(text)
}
