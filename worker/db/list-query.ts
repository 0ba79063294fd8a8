/**
 * The SQL of every list page (worker/lib/entity.ts `listRows` builds its conditions and answers from it):
 * - the count stops at COUNT_CAP rows (`total_capped` beyond), so a page never counts a 100,000-row realm;
 * - paging by cursor (`after`, `before`, `last`) seeks the sort index from a row's (sort value, key) instead of
 *   stepping over OFFSET rows; the last page and the pages before a cursor read the index backwards (reversed sort);
 * - a text search through the full-text index starts from the index (the matches, then their rows) when it
 *   matches few rows, and walks the sort index checking membership when it matches many (see `pagePlan`);
 * - the page and its count travel in one D1 batch.
 */
import { COUNT_CAP, type ListQuery } from '#shared/schemas/common'
import type { EntityDescriptor, FieldDef } from '#shared/schemas/entity'

/** A SQL condition with its parameters. */
export interface Condition {
  where: string
  params: unknown[]
}

/** A full-text search of a list: the FTS5 table and its MATCH expression. */
export interface TextSearch {
  table: string
  match: string
}

/**
 * A search matching at most this many rows of the full-text index is answered from the index: its rows are read and
 * sorted (a thousand rows cost well under a millisecond; a rare word's handful, nothing). Beyond it the page walks
 * the sort index and keeps the rows the search matches, which stops after `limit` rows because common text matches
 * densely (4,000 matches in 100,000 rows: about 600 index entries for a page of 25).
 */
export const SORT_FROM_INDEX_MAX = 1000

export const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`

export interface Order {
  field: string
  descending: boolean
  /** The sort field may be NULL (NULLs sort first ascending, last descending, as in SQLite). */
  nullable: boolean
  key: string
}

/** The `order` of a list query (or the descriptor's default) resolved to its field and direction; undefined when not sortable. */
export function resolveOrder(desc: EntityDescriptor, order: string): Order | undefined {
  const wanted = order || desc.defaultOrder
  const descending = wanted.startsWith('-')
  const field = descending ? wanted.slice(1) : wanted
  const def = (desc.fields as Record<string, FieldDef>)[field]
  if (!def?.sort) return undefined
  return { field, descending, nullable: field !== desc.key && def.nullable === true, key: desc.key }
}

/** ORDER BY of an order, read forwards or (`reverse`) backwards; the key breaks ties in the same direction. */
export function orderBy(o: Order, reverse = false): string {
  const dir = o.descending !== reverse ? 'DESC' : 'ASC'
  return `ORDER BY ${quoteName(o.field)} ${dir}${o.field === o.key ? '' : `, ${quoteName(o.key)} ${dir}`}`
}

/** The boundary row of a cursor: its sort value and key, under the order it was made for. */
export interface CursorRow {
  order: string
  value: unknown
  key: unknown
}

const toBase64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** The opaque cursor naming a row of a page (the `next`/`prev` of an answer). */
export function encodeCursor(order: Order, row: Record<string, unknown>): string {
  const name = `${order.descending ? '-' : ''}${order.field}`
  return toBase64Url(JSON.stringify([name, row[order.field] ?? null, row[order.key] ?? null]))
}

const scalar = (x: unknown) => x === null || typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x))

/** The row a cursor names, or undefined when it is not one this list made (malformed, or made for another order). */
export function decodeCursor(cursor: string, order: Order): CursorRow | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined
  let parsed: unknown
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))))
  } catch {
    return undefined
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return undefined
  const [name, value, key] = parsed as unknown[]
  if (name !== `${order.descending ? '-' : ''}${order.field}` || !scalar(value) || key === null || !scalar(key)) return undefined
  if (order.field === order.key && value !== key) return undefined
  return { order: name, value, key }
}

/**
 * The rows after (`forward`) or before a cursor's row in the order. Written as a row-value comparison, which SQLite
 * serves with a range of the (realm, field, key) index; a nullable field adds the NULL rows on the side they sort.
 */
export function cursorCondition(o: Order, at: CursorRow, forward: boolean): Condition {
  const f = quoteName(o.field)
  const k = quoteName(o.key)
  // Moving towards larger values: after in ascending order, before in descending order.
  const up = forward !== o.descending
  const op = up ? '>' : '<'
  if (o.field === o.key) return { where: `${k} ${op} ?`, params: [at.key] }
  if (at.value === null) {
    // NULLs come first in ascending order: from a NULL row, upwards is the rest of the NULLs and every value.
    return up ? { where: `((${f} IS NULL AND ${k} > ?) OR ${f} IS NOT NULL)`, params: [at.key] } : { where: `(${f} IS NULL AND ${k} < ?)`, params: [at.key] }
  }
  const compare = `(${f}, ${k}) ${op} (?, ?)`
  return { where: o.nullable && !up ? `(${compare} OR ${f} IS NULL)` : compare, params: [at.value, at.key] }
}

/** Which way a page is read. */
export type Direction = { kind: 'offset'; offset: number } | { kind: 'after'; at: CursorRow } | { kind: 'before'; at: CursorRow } | { kind: 'last' }

export interface PageSql {
  /**
   * Statements for one batch: the page (limit + 1 rows, to know whether more follow) and the capped count; for a
   * text search, the page twice (read from the full-text index; walking the sort index), each limited to no rows
   * unless the number of matches (up to SORT_FROM_INDEX_MAX + 1) chose it, so only one of them reads rows, then the
   * count.
   */
  statements: { sql: string; params: unknown[] }[]
  /** The rows come in reversed order (last page, page before a cursor): reverse them. */
  reversed: boolean
}

/**
 * The statements of one page. `columns` are the selected expressions (quoted names, computed columns); `conditions`
 * the realm scope, filters and search conditions that do not use the full-text index; `search` the full-text
 * search, if any.
 */
export function pageSql(
  table: string,
  columns: string[],
  conditions: Condition[],
  order: Order,
  direction: Direction,
  limit: number,
  search?: TextSearch,
): PageSql {
  const t = quoteName(table)
  const reversed = direction.kind === 'before' || direction.kind === 'last'
  const where = [...conditions]
  if (direction.kind === 'after' || direction.kind === 'before') where.push(cursorCondition(order, direction.at, direction.kind === 'after'))
  const whereSql = (cs: Condition[]) => (cs.length ? `WHERE ${cs.map((c) => `(${c.where})`).join(' AND ')}` : '')
  const offset = direction.kind === 'offset' ? direction.offset : 0
  // `guard`: a condition on the search as a whole (not on a row), written into the LIMIT: SQLite evaluates the LIMIT
  // once, before it opens the table, and reads nothing when it is 0. (As a WHERE term it was tested on every row the
  // plan walked: a rare word's page walked all 100,000 index entries of the realm to find that it held none.)
  const select = (from: string, cs: Condition[], fromParams: unknown[] = [], guard?: Condition) => ({
    sql: `SELECT ${columns.join(', ')} FROM ${from} ${whereSql(cs)} ${orderBy(order, reversed)} LIMIT ${guard ? `CASE WHEN ${guard.where} THEN ? ELSE 0 END` : '?'} OFFSET ?`,
    params: [...fromParams, ...cs.flatMap((c) => c.params), ...(guard?.params ?? []), limit + 1, offset],
  })
  const countOf = (from: string, fromParams: unknown[] = []) => ({
    // The count ignores the cursor (it counts the whole list), stopping at COUNT_CAP + 1 rows.
    sql: `SELECT COUNT(*) AS total FROM (SELECT 1 FROM ${from} ${whereSql(conditions)} LIMIT ${COUNT_CAP + 1})`,
    params: [...fromParams, ...conditions.flatMap((c) => c.params)],
  })
  if (!search) return { statements: [select(t, where), countOf(t)], reversed }
  const fts = quoteName(search.table)
  // The matches of the search as a subquery named `m` (one column, `rid`, so no name clashes with the table's).
  const matches = (cap?: number) =>
    `(SELECT rowid AS rid FROM ${fts} WHERE ${fts} MATCH ?${cap ? ` LIMIT ${cap}` : ''}) m CROSS JOIN ${t} ON ${t}.rowid = m.rid`
  const found = `(SELECT COUNT(*) FROM (SELECT 1 FROM ${fts} WHERE ${fts} MATCH ? LIMIT ${SORT_FROM_INDEX_MAX + 1}))`
  // Which page reads rows: the number of matches decides, once per statement (see `select`'s guard).
  const few = { where: `${found} <= ${SORT_FROM_INDEX_MAX}`, params: [search.match] }
  const many = { where: `${found} > ${SORT_FROM_INDEX_MAX}`, params: [search.match] }
  const member = { where: `${t}.rowid IN (SELECT rowid FROM ${fts} WHERE ${fts} MATCH ?)`, params: [search.match] }
  return {
    statements: [
      select(matches(SORT_FROM_INDEX_MAX + 1), where, [search.match], few),
      select(t, [member, ...where], [], many),
      countOf(matches(), [search.match]),
    ],
    reversed,
  }
}

/** The direction of a list query: by cursor when it names one (400-worthy cursors are undefined), else by offset. */
export function directionOf(query: ListQuery, order: Order): Direction | { bad: 'after' | 'before' } {
  if (query.after) {
    const at = decodeCursor(query.after, order)
    return at ? { kind: 'after', at } : { bad: 'after' }
  }
  if (query.before) {
    const at = decodeCursor(query.before, order)
    return at ? { kind: 'before', at } : { bad: 'before' }
  }
  if (query.last) return { kind: 'last' }
  return { kind: 'offset', offset: query.offset }
}
