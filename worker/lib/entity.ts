import { Hono } from 'hono'
import type * as v from 'valibot'
import { ListQuery, type ListPage } from '../../app/schemas/common'
import { maskSecret, type EntityDescriptor, type FieldDef } from '../../app/schemas/entity'
import { type AppEnv, type Ctx, parse, readJson, requireAnyPermission, requirePermission } from '../api/context'
import type { Auth } from '../db/sessions'
import { apiError } from './errors'

/** A SQL condition restricting the rows a caller may see, e.g. `realm = ?` with the caller's realm. */
export interface Scope {
  where: string
  params: unknown[]
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

/** A stored row → its typed value: 0/1 into booleans, JSON text into values, secrets masked. */
export function decodeRow<Row extends Record<string, unknown>>(desc: EntityDescriptor<Row>, raw: Record<string, unknown>, fields?: string[]): Row {
  const out: Record<string, unknown> = {}
  for (const [name, def] of Object.entries(desc.fields) as [string, FieldDef][]) {
    if (fields && !fields.includes(name)) continue
    if (!(name in raw)) continue
    out[name] = decodeValue(def, raw[name])
  }
  return out as Row
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
  // The key breaks ties so paging is stable.
  return `ORDER BY ${quote(field)} ${descending ? 'DESC' : 'ASC'}${field === desc.key ? '' : `, ${quote(desc.key)} ASC`}`
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
    const searchable = Object.entries(desc.fields as Record<string, FieldDef>).filter(([, d]) => d.search).map(([n]) => n)
    if (searchable.length) {
      conditions.push(`(${searchable.map((n) => `${quote(n)} LIKE ? ESCAPE '\\'`).join(' OR ')})`)
      params.push(...searchable.map(() => likePattern(query.like)))
    }
  }
  const listFields = Object.entries(desc.fields as Record<string, FieldDef>).filter(([, d]) => d.list).map(([n]) => n)
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

/** `list` may name several permissions, any of which allows listing. */
type Permissions = { list: string | readonly string[]; get: string; create?: string; edit?: string; delete?: string }

export interface CrudOptions<Row extends Record<string, unknown>, C extends v.GenericSchema, U extends v.GenericSchema> {
  permissions: Permissions
  /** Rows the caller may see and change; defaults to the caller's realm. */
  scope?: (c: Ctx, auth: Auth) => Scope | Promise<Scope>
  create?: C
  update?: U
  /** Turns a validated create body into stored values (realm, audit fields, derived values). */
  beforeCreate?: (c: Ctx, auth: Auth, body: v.InferOutput<C>) => Record<string, unknown> | Promise<Record<string, unknown>>
  /** Turns a validated update body into stored values; may refuse with an ApiError. */
  beforeUpdate?: (c: Ctx, auth: Auth, body: v.InferOutput<U>, existing: Row) => Record<string, unknown> | Promise<Record<string, unknown>>
  /** Refuses a delete with an ApiError (e.g. row still in use). */
  beforeDelete?: (c: Ctx, auth: Auth, existing: Row) => void | Promise<void>
}

/**
 * A Hono sub-app serving an entity: `GET /` (limit, offset, like, order), `GET /:id`, `POST /`, `PUT /:id`,
 * `DELETE /:id`, each behind its permission and inside the caller's scope. Writes answer the stored row.
 */
export function crud<Row extends Record<string, unknown>, C extends v.GenericSchema, U extends v.GenericSchema>(
  desc: EntityDescriptor<Row>,
  opts: CrudOptions<Row, C, U>,
): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  const scopeOf = (c: Ctx, auth: Auth) => (opts.scope ? opts.scope(c, auth) : realmScope(desc, auth))
  const load = async (c: Ctx, scope: Scope, id: string) => {
    const raw = await getRawRow(c.env.DB, desc, scope, id)
    if (!raw) throw apiError(404, 'not_found', `${desc.name} ${id} was not found.`, desc.key, id)
    return raw
  }

  app.get('/', async (c) => {
    const list = opts.permissions.list
    const auth = typeof list === 'string' ? await requirePermission(c, list) : await requireAnyPermission(c, ...list)
    const query = parse(ListQuery, c.req.query())
    return c.json(await listRows(c.env.DB, desc, await scopeOf(c, auth), query))
  })

  app.get('/:id', async (c) => {
    const auth = await requirePermission(c, opts.permissions.get)
    return c.json(decodeRow(desc, await load(c, await scopeOf(c, auth), c.req.param('id'))))
  })

  if (opts.create && opts.permissions.create) {
    const schema = opts.create
    const permission = opts.permissions.create
    app.post('/', async (c) => {
      const auth = await requirePermission(c, permission)
      const body = await readJson(c, schema)
      const values = opts.beforeCreate ? await opts.beforeCreate(c, auth, body) : { ...(body as object), ...(desc.realmColumn ? { [desc.realmColumn]: auth.realm } : {}) }
      const id = String(values[desc.key])
      const scope = await scopeOf(c, auth)
      if (await getRawRow(c.env.DB, desc, { where: '1 = 1', params: [] }, id)) {
        throw apiError(409, 'conflict', `${desc.name} ${id} already exists.`, desc.key, id)
      }
      await c.env.DB.batch([insertStatement(c.env.DB, desc, values)])
      return c.json(decodeRow(desc, await load(c, scope, id)), 201)
    })
  }

  if (opts.update && opts.permissions.edit) {
    const schema = opts.update
    const permission = opts.permissions.edit
    app.put('/:id', async (c) => {
      const auth = await requirePermission(c, permission)
      const id = c.req.param('id')
      const scope = await scopeOf(c, auth)
      const existing = decodeRow(desc, await load(c, scope, id))
      const body = await readJson(c, schema)
      const values = opts.beforeUpdate ? await opts.beforeUpdate(c, auth, body, existing) : (body as Record<string, unknown>)
      if (Object.keys(values).length) await c.env.DB.batch([updateStatement(c.env.DB, desc, scope, id, values)])
      return c.json(decodeRow(desc, await load(c, scope, id)))
    })
  }

  if (opts.permissions.delete) {
    const permission = opts.permissions.delete
    app.delete('/:id', async (c) => {
      const auth = await requirePermission(c, permission)
      const id = c.req.param('id')
      const scope = await scopeOf(c, auth)
      const existing = decodeRow(desc, await load(c, scope, id))
      await opts.beforeDelete?.(c, auth, existing)
      await c.env.DB.batch([deleteStatement(c.env.DB, desc, scope, id)])
      return c.body(null, 204)
    })
  }
  return app
}
