import type { FilterResult } from '#shared/word-filter'
import { resolveNicksRead } from './ledger'
import { wordFilterFrom, wordFilterReads } from './word-filter'

/**
 * The reads a transfer decides on — its recipients (resolveNicksRead) and the paying realm's word filter
 * (wordFilterReads) — remembered per isolate, keyed by the paying realm and the typed recipients, so that a
 * transfer that repeats them commits in ONE batch without reading first. They are never trusted: the batch's first
 * statement (transferStoreIf) recomputes both reads inside the batch's transaction and compares them with what was
 * remembered; when anything changed (a recipient disabled, the filter edited, …) that statement fails, the batch
 * rolls back whole and nothing is written (isStaleReads), and the caller reads afresh. A hit therefore decides
 * exactly as a fresh read would, with one D1 round trip instead of two.
 */
export interface TransferReads {
  /** resolveNicksRead's result. */
  nicks: D1Result
  /** The word filter built from wordFilterReads' results (built once per entry, not per request). */
  filter: (text: string) => FilterResult
  /** What the reads answered, as SQLite serialises them (transferReadsFingerprint). */
  fingerprint: { nicks: string; filter: string }
}

/** The recipients' read as one JSON text (ordered, so the same rows always give the same text); ?realm, ?list. */
const nicksFingerprintSql = (realm: string, list: string) =>
  `(SELECT json_group_array(json_array(nick_suffix, nick)) FROM (
     SELECT r.nick_suffix, u.nick FROM realm r
     LEFT JOIN user u ON u.realm = r.code AND u.disabled = 0
       AND u.nick IN (SELECT value FROM json_each(${list}) UNION ALL SELECT value || r.nick_suffix FROM json_each(${list}) WHERE r.nick_suffix <> '')
     WHERE r.code = ${realm} ORDER BY u.nick))`

/** The word filter's read (wordFilterReads) as one JSON text; ?realm. */
const filterFingerprintSql = (realm: string) =>
  `(SELECT json_array(
     (SELECT json_group_array(sentence) FROM (SELECT sentence FROM realm_word_filter WHERE realm = ${realm} ORDER BY sentence)),
     (SELECT json_group_array(domain) FROM (SELECT domain FROM realm_exemption_domain WHERE realm = ${realm} ORDER BY domain)),
     (SELECT word_filter_links FROM realm WHERE code = ${realm}),
     g.value, g.updated_at, g.updated_by)
   FROM (SELECT 1) LEFT JOIN global_config g ON g.id = 1)`

const targetsJson = (typed: string[]) => JSON.stringify([...new Set(typed)])

/** The transfer's reads for a read batch: recipients, word filter, then their fingerprint (three statements). */
export function transferReadStatements(db: D1Database, realm: string, typed: string[]): D1PreparedStatement[] {
  return [
    resolveNicksRead(db, realm, typed),
    ...wordFilterReads(db, realm),
    db.prepare(`SELECT ${nicksFingerprintSql('?1', '?2')} AS nicks, ${filterFingerprintSql('?1')} AS filter`).bind(realm, targetsJson(typed)),
  ]
}

const remembered = new Map<string, TransferReads>()
/** Entries kept per isolate; the oldest is dropped beyond this. */
const REMEMBERED_MAX = 256
const cacheKey = (realm: string, typed: string[]) => `${realm}\n${JSON.stringify(typed)}`

/** The reads made of transferReadStatements' results, remembered for the next transfer with the same realm and recipients. */
export function transferReadsFrom(realm: string, typed: string[], results: D1Result[]): TransferReads {
  const [nicks, filterRow, fp] = results
  const row = fp.results[0] as { nicks: string; filter: string }
  const reads = { nicks, filter: wordFilterFrom([filterRow]), fingerprint: { nicks: row.nicks, filter: row.filter } }
  const key = cacheKey(realm, typed)
  remembered.delete(key)
  remembered.set(key, reads)
  if (remembered.size > REMEMBERED_MAX) remembered.delete(remembered.keys().next().value as string)
  return reads
}

/** The remembered reads of a transfer from `realm` to `typed`, if any (to be checked by transferStoreIf). */
export function rememberedTransferReads(realm: string, typed: string[]): TransferReads | undefined {
  return remembered.get(cacheKey(realm, typed))
}

/** Forgets the remembered reads of a transfer (they were found stale). */
export function forgetTransferReads(realm: string, typed: string[]): void {
  remembered.delete(cacheKey(realm, typed))
}

/**
 * The INSERT storing a transfer's answer under its key (as idempotencyStore), made the check of the remembered
 * reads: when the recipients' or the word filter's read answers differently now, the key is NULL and the statement
 * fails on ledger_idempotency.key's NOT NULL — first in the batch, so nothing of the batch is written.
 */
export function transferStoreIf(
  db: D1Database,
  keyRealm: string,
  key: string,
  hash: string,
  o: { status: number; answer: unknown },
  realm: string,
  typed: string[],
  reads: TransferReads,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO ledger_idempotency (realm, key, request_hash, status, response_status, response, created_at)
       SELECT ?1, CASE WHEN ${nicksFingerprintSql('?7', '?8')} = ?9 AND ${filterFingerprintSql('?7')} = ?10 THEN ?2 END, ?3, 'done', ?4, ?5, ?6`,
    )
    .bind(
      keyRealm,
      key,
      hash,
      o.status,
      JSON.stringify(o.answer),
      new Date().toISOString(),
      realm,
      targetsJson(typed),
      reads.fingerprint.nicks,
      reads.fingerprint.filter,
    )
}

/** True when a batch failed because transferStoreIf found the remembered reads stale. */
export function isStaleReads(err: unknown): boolean {
  return /NOT NULL constraint failed: ledger_idempotency\.key/.test(String(err))
}
