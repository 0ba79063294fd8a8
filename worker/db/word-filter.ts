import { filterText, type FilterResult } from '#shared/word-filter'
import { globalConfigFrom } from './global-config'

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
 * The read a word-filter check needs (the realm's sentences, the platform's defaults, the realm's link rule and
 * exempt domains), as one statement (one row) for a batch, possibly with the caller's own reads.
 */
export function wordFilterReads(db: D1Database, realm: string): D1PreparedStatement[] {
  return [
    db
      .prepare(
        `SELECT (SELECT json_group_array(sentence) FROM (SELECT sentence FROM realm_word_filter WHERE realm = ?1 ORDER BY sentence)) AS sentences,
                (SELECT json_group_array(domain) FROM (SELECT domain FROM realm_exemption_domain WHERE realm = ?1 ORDER BY domain)) AS exempt,
                (SELECT word_filter_links FROM realm WHERE code = ?1) AS links,
                g.value, g.updated_at, g.updated_by
         FROM (SELECT 1) LEFT JOIN global_config g ON g.id = 1`,
      )
      .bind(realm),
  ]
}

type WordFilterRow = { sentences: string; exempt: string; links: number | null; value: string | null; updated_at: string | null; updated_by: string | null }

/** The word filter made of the results of wordFilterReads. */
export function wordFilterFrom(results: D1Result[]): (text: string) => FilterResult {
  const row = results[0].results[0] as WordFilterRow
  const global = row.value === null ? null : { value: row.value, updated_at: row.updated_at ?? '', updated_by: row.updated_by ?? '' }
  const words = [...(JSON.parse(row.sentences) as string[]), ...globalConfigFrom(global).default_word_filter]
  const options = { on: row.links === 1, exempt: JSON.parse(row.exempt) as string[] }
  return (text) => (text ? filterText(text, words, options) : { text, matches: [] })
}

/** Filters user text with the realm's word filter, the platform's default sentences and its link rule (one batch). */
export async function checkWordFilter(db: D1Database, realm: string, text: string): Promise<FilterResult> {
  if (!text) return { text, matches: [] }
  return wordFilterFrom(await db.batch(wordFilterReads(db, realm)))(text)
}
