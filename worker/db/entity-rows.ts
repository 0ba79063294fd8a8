import { COUNT_CAP, CURSOR_MAX, type ListQuery, type ListPage } from '#shared/schemas/common'
import { maskSecret, type EntityDescriptor, type FieldDef } from '#shared/schemas/entity'
import { apiError } from '../lib/errors'
import { searchIndexOf } from './list-schema'
import { directionOf, encodeCursor, pageSql, resolveOrder, type TextSearch } from './list-query'
import type { Auth } from './sessions'

/**
 * The SQL of the generic entity machinery (worker/lib/entity.ts): reading a declared entity's rows (list pages by
 * offset or cursor, one row), the write statements of its create, update and delete, and the scopes and filters that
 * restrict them. Every statement takes the caller's scope (the realm for tenant tables).
 */
/** A SQL condition restricting the rows a caller may see, e.g. `realm = ?` with the caller's realm. */
export interface Scope {
  where: string
  params: unknown[]
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A stored row → its typed value: 0/1 into booleans, JSON text into values, secrets masked (unless `reveal`). */
export function decodeRow<Row extends Record<string, unknown>>(
  desc: EntityDescriptor<Row>,
  raw: Record<string, unknown>,
  fields?: string[],
  reveal = false,
): Row {
  const out: Record<string, unknown> = {}
  for (const [name, def] of Object.entries(desc.fields) as [string, FieldDef][]) {
    if (fields && !fields.includes(name)) continue
    if (!(name in raw)) continue
    out[name] = decodeValue(reveal && def.type === 'secret' ? { ...def, type: 'text' } : def, raw[name])
  }
  return out as Row
}

/** Names of the descriptor's secret fields (masked in answers and audit records). */
export function secretFields(desc: EntityDescriptor): string[] {
  return Object.entries(desc.fields as Record<string, FieldDef>)
    .filter(([, d]) => d.type === 'secret')
    .map(([n]) => n)
}

function decodeValue(def: FieldDef, value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null
  switch (def.type) {
    case 'bool':
      return value === 1 || value === true
    case 'int':
    case 'real':
      return Number(value)
    case 'json':
      try {
        return JSON.parse(String(value))
      } catch {
        return null
      }
    case 'secret':
      return maskSecret(String(value))
    default:
      return value
  }
}

function encodeValue(def: FieldDef, value: unknown): unknown {
  if (value === undefined) return undefined
  if (value === null) return null
  switch (def.type) {
    case 'bool':
      return value ? 1 : 0
    case 'json':
      return JSON.stringify(value)
    default:
      return value
  }
}

/** Shortest text a trigram index finds (shorter text is searched with LIKE within the realm's rows). */
const TRIGRAM = 3

/**
 * The condition matching rows whose `columns` contain `text`, through the table's full-text index (FTS5 trigram:
 * the substring semantics of LIKE '%text%', case-insensitive) when it has one and the text is long enough for it.
 */
function textMatch(desc: EntityDescriptor, columns: string[], text: string): Scope | undefined {
  const index = searchIndexOf(desc)
  if (!index || [...text].length < TRIGRAM || !columns.every((c) => index.columns.includes(c))) return undefined
  return {
    where: `${quote(desc.table)}.rowid IN (SELECT rowid FROM ${quote(index.table)} WHERE ${quote(index.table)} MATCH ?)`,
    params: [matchExpression(columns, text)],
  }
}

/** The FTS5 query matching `text` as a substring of any of `columns`. */
const matchExpression = (columns: string[], text: string) => `{${columns.join(' ')}} : "${text.replace(/"/g, '""')}"`

/** Escapes `%`, `_` and `\` so user text matches literally inside LIKE (with ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** The condition of the descriptor's field filters present in a list query string (400 on a malformed value). */
export function filterScope(desc: EntityDescriptor, query: Record<string, string>): Scope | undefined {
  const where: string[] = []
  const params: unknown[] = []
  for (const [name, def] of Object.entries(desc.fields as Record<string, FieldDef>)) {
    if (!def.filter) continue
    const value = query[name]
    const bad = (v: unknown) => apiError(400, 'invalid', `Invalid filter ${name}.`, name, v)
    if (def.filter === 'date') {
      for (const [suffix, op, time] of [
        ['_from', '>=', 'T00:00:00.000Z'],
        ['_to', '<=', 'T23:59:59.999Z'],
      ] as const) {
        const d = query[`${name}${suffix}`]
        if (d === undefined || d === '') continue
        if (!DATE.test(d) || Number.isNaN(Date.parse(d))) throw bad(d)
        where.push(`${quote(name)} ${op} ?`)
        params.push(`${d}${time}`)
      }
      continue
    }
    if (value === undefined || value === '') continue
    if (value.length > 500) throw bad(value)
    if (def.filter === 'eq') {
      where.push(`${quote(name)} = ?`)
      params.push(def.type === 'bool' ? (value === 'true' ? 1 : 0) : def.type === 'int' || def.type === 'real' ? Number(value) : value)
    } else if (def.filter === 'in') {
      const values = value
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
        .slice(0, 100)
      if (!values.length) continue
      where.push(`${quote(name)} IN (${values.map(() => '?').join(', ')})`)
      params.push(...values)
    } else {
      const indexed = textMatch(desc, [name], value)
      where.push(indexed ? indexed.where : `${quote(name)} LIKE ? ESCAPE '\\'`)
      params.push(...(indexed ? indexed.params : [likePattern(value)]))
    }
  }
  return where.length ? { where: where.join(' AND '), params } : undefined
}

/** Options of a list page. */
export interface ListOptions {
  /** Computed columns of each item: name → SQL expression over the table's row (e.g. a user's roles as JSON). */
  computed?: Record<string, string>
}

/**
 * One page of rows in scope, filtered by `like` over the searchable fields and ordered by `order`, read by offset or
 * by cursor (worker/db/list-query.ts: capped count, keyset paging, search plans), in one D1 batch.
 */
export async function listRows<Row extends Record<string, unknown>>(
  db: D1Database,
  desc: EntityDescriptor<Row>,
  scope: Scope,
  query: ListQuery,
  extra?: Scope,
  options: ListOptions = {},
): Promise<ListPage<Row>> {
  const order = resolveOrder(desc, query.order)
  if (!order) throw apiError(400, 'invalid', `Cannot order by ${(query.order || desc.defaultOrder).replace(/^-/, '')}.`, 'order', query.order)
  const direction = directionOf(query, order)
  if ('bad' in direction) throw apiError(400, 'invalid', 'validation.cursor', direction.bad, query[direction.bad])
  const conditions: Scope[] = [scope, ...(extra ? [extra] : [])]
  let search: TextSearch | undefined
  if (query.like) {
    const searchable = Object.entries(desc.fields as Record<string, FieldDef>)
      .filter(([, d]) => d.search)
      .map(([n]) => n)
    const index = searchIndexOf(desc)
    if (index && [...query.like].length >= TRIGRAM && searchable.length && searchable.every((c) => index.columns.includes(c))) {
      search = { table: index.table, match: matchExpression(searchable, query.like) }
    } else if (searchable.length) {
      conditions.push({
        where: searchable.map((n) => `${quote(n)} LIKE ? ESCAPE '\\'`).join(' OR '),
        params: searchable.map(() => likePattern(query.like)),
      })
    }
  }
  const listFields = Object.entries(desc.fields as Record<string, FieldDef>)
    .filter(([, d]) => d.list)
    .map(([n]) => n)
  // The cursor's sort value and key are read even when the list does not answer them.
  const read = [...new Set([...listFields, order.field, order.key])]
  const t = quote(desc.table)
  const columns = [...read.map((n) => `${t}.${quote(n)}`), ...Object.entries(options.computed ?? {}).map(([name, sql]) => `(${sql}) AS ${quote(name)}`)]
  const { statements, reversed } = pageSql(desc.table, columns, conditions, order, direction, query.limit, search)
  const results = await db.batch(statements.map((s) => db.prepare(s.sql).bind(...s.params)))
  // A search answers two pages, of which only the one its number of matches chose can hold rows.
  const pageResult = search && results[1].results.length > 0 ? results[1] : results[0]
  const countResult = search ? results[2] : results[1]
  const rows = pageResult.results as Record<string, unknown>[]
  const more = rows.length > query.limit
  const raw = rows.slice(0, query.limit)
  if (reversed) raw.reverse()
  const counted = Number((countResult.results[0] as { total: number }).total)
  const capped = counted > COUNT_CAP
  const total = capped ? COUNT_CAP : counted
  const first = raw[0]
  const lastRow = raw[raw.length - 1]
  // Whether a page precedes and follows this one, by how it was read.
  const before = direction.kind === 'offset' ? direction.offset > 0 : direction.kind === 'after' ? raw.length > 0 : more
  const after = direction.kind === 'offset' || direction.kind === 'after' ? more : direction.kind === 'before'
  const offset = direction.kind === 'last' && !capped ? Math.max(0, total - raw.length) : query.offset
  const computed = Object.keys(options.computed ?? {})
  const next = after && lastRow ? encodeCursor(order, lastRow) : null
  const prev = before && first ? encodeCursor(order, first) : null
  // Cursors too long for a query string (a very long sorted text): no cursors, the client pages by offset.
  const cursors = (next ?? '').length <= CURSOR_MAX && (prev ?? '').length <= CURSOR_MAX ? { next, prev } : {}
  return {
    items: raw.map((r) => ({ ...decodeRow(desc, r, listFields), ...Object.fromEntries(computed.map((n) => [n, r[n]])) }) as Row),
    total,
    total_capped: capped,
    limit: query.limit,
    offset,
    ...cursors,
  }
}

/** The raw stored row with this key inside the scope, or null. */
export async function getRawRow(db: D1Database, desc: EntityDescriptor, scope: Scope, id: string): Promise<Record<string, unknown> | null> {
  return db
    .prepare(`SELECT * FROM ${quote(desc.table)} WHERE ${quote(desc.key)} = ? AND (${scope.where})`)
    .bind(id, ...scope.params)
    .first<Record<string, unknown>>()
}

export function writableColumns(desc: EntityDescriptor, values: Record<string, unknown>): [string, unknown][] {
  const fields = desc.fields as Record<string, FieldDef>
  return Object.entries(values)
    .filter(([name, value]) => fields[name] && value !== undefined)
    .map(([name, value]) => [name, encodeValue(fields[name], value)])
}

export function insertStatement(db: D1Database, desc: EntityDescriptor, values: Record<string, unknown>): D1PreparedStatement {
  const cols = writableColumns(desc, values)
  return db
    .prepare(`INSERT INTO ${quote(desc.table)} (${cols.map(([n]) => quote(n)).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
    .bind(...cols.map(([, val]) => val))
}

export function updateStatement(db: D1Database, desc: EntityDescriptor, scope: Scope, id: string, values: Record<string, unknown>): D1PreparedStatement {
  const cols = writableColumns(desc, values)
  return db
    .prepare(`UPDATE ${quote(desc.table)} SET ${cols.map(([n]) => `${quote(n)} = ?`).join(', ')} WHERE ${quote(desc.key)} = ? AND (${scope.where})`)
    .bind(...cols.map(([, val]) => val), id, ...scope.params)
}

export function deleteStatement(db: D1Database, desc: EntityDescriptor, scope: Scope, id: string): D1PreparedStatement {
  return db.prepare(`DELETE FROM ${quote(desc.table)} WHERE ${quote(desc.key)} = ? AND (${scope.where})`).bind(id, ...scope.params)
}

/** Scope of tenant rows: the caller's realm. */
export function realmScope(desc: EntityDescriptor, auth: Auth): Scope {
  if (!desc.realmColumn) throw new Error(`${desc.name} has no realm column; give crud() a scope`)
  return { where: `${quote(desc.realmColumn)} = ?`, params: [auth.realm] }
}
