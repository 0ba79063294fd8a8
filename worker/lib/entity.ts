import { Hono } from 'hono'
import * as v from 'valibot'
import type { Access } from '#shared/access'
import { ListQuery, type ListPage } from '#shared/schemas/common'
import { maskSecret, type EntityDescriptor, type FieldDef } from '#shared/schemas/entity'
import { type AppEnv, type Ctx, parse, pathParam, readJson } from '../api/context'
import { searchIndexOf } from '../db/list-schema'
import type { Auth } from '../db/sessions'
import { auditStatement } from '../db/audit'
import { apiError } from './errors'
import { guarded, type ApiInput } from './guard'

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
    where: `rowid IN (SELECT rowid FROM ${quote(index.table)} WHERE ${quote(index.table)} MATCH ?)`,
    params: [`{${columns.join(' ')}} : "${text.replace(/"/g, '""')}"`],
  }
}

/** Escapes `%`, `_` and `\` so user text matches literally inside LIKE (with ESCAPE '\'). */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`
}

function orderClause(desc: EntityDescriptor, order: string): string {
  const wanted = order || desc.defaultOrder
  const descending = wanted.startsWith('-')
  const field = descending ? wanted.slice(1) : wanted
  const def = (desc.fields as Record<string, FieldDef>)[field]
  if (!def?.sort) throw apiError(400, 'invalid', `Cannot order by ${field}.`, 'order', order)
  // The key breaks ties so paging is stable; in the same direction, so one index (realm, field, key) serves both ways.
  const dir = descending ? 'DESC' : 'ASC'
  return `ORDER BY ${quote(field)} ${dir}${field === desc.key ? '' : `, ${quote(desc.key)} ${dir}`}`
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

/** One page of rows in scope, filtered by `like` over the searchable fields and ordered by `order`. */
export async function listRows<Row extends Record<string, unknown>>(
  db: D1Database,
  desc: EntityDescriptor<Row>,
  scope: Scope,
  query: ListQuery,
  extra?: Scope,
): Promise<ListPage<Row>> {
  const conditions = [scope.where]
  const params = [...scope.params]
  if (extra) {
    conditions.push(extra.where)
    params.push(...extra.params)
  }
  if (query.like) {
    const searchable = Object.entries(desc.fields as Record<string, FieldDef>)
      .filter(([, d]) => d.search)
      .map(([n]) => n)
    const indexed = searchable.length ? textMatch(desc, searchable, query.like) : undefined
    if (indexed) {
      conditions.push(indexed.where)
      params.push(...indexed.params)
    } else if (searchable.length) {
      conditions.push(`(${searchable.map((n) => `${quote(n)} LIKE ? ESCAPE '\\'`).join(' OR ')})`)
      params.push(...searchable.map(() => likePattern(query.like)))
    }
  }
  const listFields = Object.entries(desc.fields as Record<string, FieldDef>)
    .filter(([, d]) => d.list)
    .map(([n]) => n)
  const where = `WHERE ${conditions.map((c) => `(${c})`).join(' AND ')}`
  const [page, count] = await db.batch([
    db
      .prepare(`SELECT ${listFields.map(quote).join(', ')} FROM ${quote(desc.table)} ${where} ${orderClause(desc, query.order)} LIMIT ? OFFSET ?`)
      .bind(...params, query.limit, query.offset),
    db.prepare(`SELECT COUNT(*) AS total FROM ${quote(desc.table)} ${where}`).bind(...params),
  ])
  return {
    items: (page.results as Record<string, unknown>[]).map((r) => decodeRow(desc, r, listFields)),
    total: Number((count.results[0] as { total: number }).total),
    limit: query.limit,
    offset: query.offset,
  }
}

/** The raw stored row with this key inside the scope, or null. */
export async function getRawRow(db: D1Database, desc: EntityDescriptor, scope: Scope, id: string): Promise<Record<string, unknown> | null> {
  return db
    .prepare(`SELECT * FROM ${quote(desc.table)} WHERE ${quote(desc.key)} = ? AND (${scope.where})`)
    .bind(id, ...scope.params)
    .first<Record<string, unknown>>()
}

function writableColumns(desc: EntityDescriptor, values: Record<string, unknown>): [string, unknown][] {
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

/** One permission, or a list of which any one suffices (e.g. an edit screen may read what it edits). */
type Perm = string | readonly string[]
type Permissions = { list: Perm; get: Perm; create?: string; edit?: string; delete?: string }
const accessOf = (p: Perm): Access => (typeof p === 'string' ? { all: [p] } : { any: p })

/** A write about to be stored: `values` as beforeCreate/beforeUpdate returned them (the row before, for a delete). */
export interface CrudWrite {
  action: 'create' | 'update' | 'delete'
  id: string
  values: Record<string, unknown>
}

/** `?fields=a,b`: the names of the fields a get answers (seed 000 §7); absent, every field. */
export const FieldsQuery = v.object({
  fields: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(2000, 'validation.max_length'),
      v.transform((x) => [...new Set(x.split(',').map((f) => f.trim()))].filter((f) => f !== '')),
      v.array(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/, 'validation.fields'))),
    ),
  ),
})

/** Only the requested fields of an answer; a name the answer does not have is a 400 (it changes nothing). */
export function pickFields(row: Record<string, unknown>, fields: string[] | undefined): Record<string, unknown> {
  if (!fields || fields.length === 0) return row
  const unknown = fields.find((f) => !Object.hasOwn(row, f))
  if (unknown !== undefined) throw apiError(400, 'unknown_field', `Unknown field ${unknown}.`, 'fields', unknown)
  return Object.fromEntries(fields.map((f) => [f, row[f]]))
}

export interface CrudOptions<Row extends Record<string, unknown>, C extends v.GenericSchema, U extends v.GenericSchema> {
  permissions: Permissions
  /** Rows the caller may see and change; defaults to the caller's realm. */
  scope?: (c: Ctx, auth: Auth) => Scope | Promise<Scope>
  /** Rows the list shows when they differ from `scope` (e.g. a view of soft-deleted rows asked for in the query). */
  listScope?: (c: Ctx, auth: Auth) => Scope | Promise<Scope>
  create?: C
  update?: U
  /** Turns a validated create body into stored values (realm, audit fields, derived values). */
  beforeCreate?: (c: Ctx, auth: Auth, body: v.InferOutput<C>) => Record<string, unknown> | Promise<Record<string, unknown>>
  /** Turns a validated update body into stored values; may refuse with an ApiError. */
  beforeUpdate?: (c: Ctx, auth: Auth, body: v.InferOutput<U>, existing: Row) => Record<string, unknown> | Promise<Record<string, unknown>>
  /** Refuses a delete with an ApiError (e.g. row still in use). */
  beforeDelete?: (c: Ctx, auth: Auth, existing: Row) => void | Promise<void>
  /** More statements for the write's batch (rows of related tables), so they commit or fail with it. */
  statements?: (c: Ctx, auth: Auth, write: CrudWrite) => D1PreparedStatement[] | Promise<D1PreparedStatement[]>
  /** Derived fields of get and write answers, also given to the audit record's `before` of an update. */
  expand?: (c: Ctx, row: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>
}

type CrudEndpoint<I, O, S extends number = 200> = { input: I & ApiInput; output: O; outputFormat: 'json'; status: S }
type WithId = { param: { id: string } }
/**
 * The routes crud() serves, as the typed client (`ApiType`) sees them; registered conditionally, so Hono cannot
 * infer them from a chain. A create, update or delete the options leave out answers the API's 404 envelope.
 */
export type CrudSchema<Row> = {
  '/': { $get: CrudEndpoint<object, ListPage<Row>>; $post: CrudEndpoint<object, Row, 201> }
  '/:id': { $get: CrudEndpoint<WithId, Row>; $put: CrudEndpoint<WithId, Row>; $delete: CrudEndpoint<WithId, null, 204> }
}
export type CrudApi<Row> = Hono<AppEnv, CrudSchema<Row>>

/**
 * A Hono sub-app serving an entity: `GET /` (limit, offset, like, order), `GET /:id`, `POST /`, `PUT /:id`,
 * `DELETE /:id`, each behind its permission and inside the caller's scope. Writes answer the stored row.
 */
export function crud<Row extends Record<string, unknown>, C extends v.GenericSchema, U extends v.GenericSchema>(
  desc: EntityDescriptor<Row>,
  opts: CrudOptions<Row, C, U>,
): CrudApi<Row> {
  const app = new Hono<AppEnv>()
  const secrets = secretFields(desc)
  /** Who changes what, for the audit record: tenant rows in their realm, realms in the caller's. */
  const audit = (c: Ctx, auth: Auth, values: Record<string, unknown>) => ({
    realm: desc.realmColumn && typeof values[desc.realmColumn] === 'string' ? String(values[desc.realmColumn]) : auth.realm,
    actor: auth.nick,
    actorRealm: auth.realm,
    entity: desc.name,
    secrets,
    requestId: c.get('requestId'),
  })
  const scopeOf = (c: Ctx, auth: Auth) => (opts.scope ? opts.scope(c, auth) : realmScope(desc, auth))
  const load = async (c: Ctx, scope: Scope, id: string) => {
    const raw = await getRawRow(c.env.DB, desc, scope, id)
    if (!raw) throw apiError(404, 'not_found', `${desc.name} ${id} was not found.`, desc.key, id)
    return raw
  }
  const answer = async (c: Ctx, raw: Record<string, unknown>) => (opts.expand ? opts.expand(c, decodeRow(desc, raw)) : decodeRow(desc, raw))
  const more = async (c: Ctx, auth: Auth, write: CrudWrite) => (opts.statements ? opts.statements(c, auth, write) : [])

  app.get(
    '/',
    guarded(accessOf(opts.permissions.list), async (c, auth) => {
      const query = parse(ListQuery, c.req.query())
      const scope = opts.listScope ? await opts.listScope(c, auth) : await scopeOf(c, auth)
      return c.json(await listRows(c.env.DB, desc, scope, query, filterScope(desc, c.req.query())))
    }),
  )

  app.get(
    '/:id',
    guarded(accessOf(opts.permissions.get), async (c, auth) => {
      const { fields } = parse(FieldsQuery, { fields: c.req.query('fields') })
      const row = await answer(c, await load(c, await scopeOf(c, auth), pathParam(c, 'id')))
      return c.json(pickFields(row, fields))
    }),
  )

  if (opts.create && opts.permissions.create) {
    const schema = opts.create
    const permission = opts.permissions.create
    app.post(
      '/',
      guarded({ all: [permission] }, async (c, auth) => {
        const body = await readJson(c, schema)
        const values = opts.beforeCreate
          ? await opts.beforeCreate(c, auth, body)
          : { ...(body as object), ...(desc.realmColumn ? { [desc.realmColumn]: auth.realm } : {}) }
        const id = String(values[desc.key])
        const scope = await scopeOf(c, auth)
        if (await getRawRow(c.env.DB, desc, { where: '1 = 1', params: [] }, id)) {
          throw apiError(409, 'conflict', `${desc.name} ${id} already exists.`, desc.key, id)
        }
        await c.env.DB.batch([
          insertStatement(c.env.DB, desc, values),
          ...(await more(c, auth, { action: 'create', id, values })),
          auditStatement(c.env.DB, { ...audit(c, auth, values), action: 'create', entityId: id, after: values }),
        ])
        return c.json(await answer(c, await load(c, scope, id)), 201)
      }),
    )
  }

  if (opts.update && opts.permissions.edit) {
    const schema = opts.update
    const permission = opts.permissions.edit
    app.put(
      '/:id',
      guarded({ all: [permission] }, async (c, auth) => {
        const id = pathParam(c, 'id')
        const scope = await scopeOf(c, auth)
        const raw = await load(c, scope, id)
        const existing = decodeRow(desc, raw)
        const body = await readJson(c, schema)
        const values = opts.beforeUpdate ? await opts.beforeUpdate(c, auth, body, existing) : (body as Record<string, unknown>)
        if (Object.keys(values).length) {
          const decoded = decodeRow(desc, raw, undefined, true)
          const before = opts.expand ? await opts.expand(c, decoded) : decoded
          const after = { ...before, ...values }
          await c.env.DB.batch([
            ...(writableColumns(desc, values).length ? [updateStatement(c.env.DB, desc, scope, id, values)] : []),
            ...(await more(c, auth, { action: 'update', id, values })),
            auditStatement(c.env.DB, { ...audit(c, auth, before), action: 'update', entityId: id, before, after }),
          ])
        }
        return c.json(await answer(c, await load(c, scope, id)))
      }),
    )
  }

  if (opts.permissions.delete) {
    const permission = opts.permissions.delete
    app.delete(
      '/:id',
      guarded({ all: [permission] }, async (c, auth) => {
        const id = pathParam(c, 'id')
        const scope = await scopeOf(c, auth)
        const raw = await load(c, scope, id)
        const existing = decodeRow(desc, raw)
        await opts.beforeDelete?.(c, auth, existing)
        const before = decodeRow(desc, raw, undefined, true)
        await c.env.DB.batch([
          deleteStatement(c.env.DB, desc, scope, id),
          ...(await more(c, auth, { action: 'delete', id, values: before })),
          auditStatement(c.env.DB, { ...audit(c, auth, before), action: 'delete', entityId: id, before }),
        ])
        return c.body(null, 204)
      }),
    )
  }
  return app as unknown as CrudApi<Row>
}
