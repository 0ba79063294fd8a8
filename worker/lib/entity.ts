import { Hono } from 'hono'
import * as v from 'valibot'
import type { Access, RealmFlag } from '#shared/access'
import { ListQuery, type ListPage } from '#shared/schemas/common'
import type { EntityDescriptor } from '#shared/schemas/entity'
import { type AppEnv, type Ctx, parse, pathParam, readJson } from '../api/context'
import { runBatch } from '../db/batch'
import {
  decodeRow,
  deleteStatement,
  filterScope,
  getRawRow,
  insertStatement,
  listRows,
  realmScope,
  secretFields,
  updateStatement,
  writableColumns,
  type Scope,
} from '../db/entity-rows'
import type { Auth } from '../db/sessions'
import { auditStatement } from '../db/audit'
import { apiError } from './errors'
import { newId, nowIso } from './tms'
import { guarded, type ApiInput } from './guard'

/** The columns a stored row gets when someone changes it. */
export const stamp = (auth: Auth) => ({ updated_at: nowIso(), updated_by: auth.nick })

/** The columns a new row of the acting realm gets: a fresh id, the realm, who created it and when. */
export const born = (auth: Auth) => ({ id: newId(), realm: auth.realm, created_at: nowIso(), created_by: auth.nick, ...stamp(auth) })

// The SQL lives in worker/db/entity-rows.ts; these names stay importable from here, where handlers declare entities.
export {
  decodeRow,
  deleteStatement,
  filterScope,
  getRawRow,
  insertStatement,
  likePattern,
  listRows,
  realmScope,
  secretFields,
  updateStatement,
} from '../db/entity-rows'
export type { ListOptions, Scope } from '../db/entity-rows'

/** One permission, or a list of which any one suffices (e.g. an edit screen may read what it edits). */
type Perm = string | readonly string[]
type Permissions = { list: Perm; get: Perm; create?: string; edit?: string; delete?: string }
const accessOf = (p: Perm, flags?: readonly RealmFlag[]): Access => ({ ...(typeof p === 'string' ? { all: [p] } : { any: p }), ...(flags ? { flags } : {}) })

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
  /** Realm flags every endpoint also needs (e.g. persona_enabled). */
  flags?: readonly RealmFlag[]
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
  /** Computed columns of each list item: name → SQL expression over the row (built in worker/db). */
  computed?: Record<string, string>
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
    guarded(accessOf(opts.permissions.list, opts.flags), async (c, auth) => {
      const query = parse(ListQuery, c.req.query())
      const scope = opts.listScope ? await opts.listScope(c, auth) : await scopeOf(c, auth)
      return c.json(await listRows(c.env.DB, desc, scope, query, filterScope(desc, c.req.query()), opts.computed ? { computed: opts.computed } : undefined))
    }),
  )

  app.get(
    '/:id',
    guarded(accessOf(opts.permissions.get, opts.flags), async (c, auth) => {
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
      guarded(accessOf(permission, opts.flags), async (c, auth) => {
        const body = await readJson(c, schema)
        const values = opts.beforeCreate
          ? await opts.beforeCreate(c, auth, body)
          : { ...(body as object), ...(desc.realmColumn ? { [desc.realmColumn]: auth.realm } : {}) }
        const id = String(values[desc.key])
        const scope = await scopeOf(c, auth)
        if (await getRawRow(c.env.DB, desc, { where: '1 = 1', params: [] }, id)) {
          throw apiError(409, 'conflict', `${desc.name} ${id} already exists.`, desc.key, id)
        }
        await runBatch(c.env.DB, [
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
      guarded(accessOf(permission, opts.flags), async (c, auth) => {
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
          await runBatch(c.env.DB, [
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
      guarded(accessOf(permission, opts.flags), async (c, auth) => {
        const id = pathParam(c, 'id')
        const scope = await scopeOf(c, auth)
        const raw = await load(c, scope, id)
        const existing = decodeRow(desc, raw)
        await opts.beforeDelete?.(c, auth, existing)
        const before = decodeRow(desc, raw, undefined, true)
        await runBatch(c.env.DB, [
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
