import { filterText, type FilterResult } from '#shared/word-filter'
import { getGlobalConfig } from './global-config'

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

/** Filters user text with the realm's word filter, the platform's default sentences and its link rule. */
export async function checkWordFilter(db: D1Database, realm: string, text: string): Promise<FilterResult> {
  if (!text) return { text, matches: [] }
  const [sentences, global, row, exempt] = await Promise.all([
    getWordFilter(db, realm),
    getGlobalConfig(db),
    db.prepare('SELECT word_filter_links FROM realm WHERE code = ?').bind(realm).first<{ word_filter_links: number }>(),
    getExemptionDomains(db, realm),
  ])
  return filterText(text, [...sentences, ...global.default_word_filter], { on: row?.word_filter_links === 1, exempt })
}
