import { Hono, type Handler } from 'hono'
import * as v from 'valibot'
import { ContentKey, ContentPut, PackageCreate, PackageUpdate } from '#shared/schemas/ledger'
import { contentEntity, packageEntity, type LedgerContent } from '#shared/schemas/ledger-entity'
import { auditStatement } from '../../lib/audit'
import { randomToken } from '../../lib/crypto'
import { crud, decodeRow, getRawRow } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { endpointAccess, guarded } from '../../lib/guard'
import { type AppEnv, type Ctx, parse, pathParam, readJson, readQuery } from '../context'
import { Flag, inRealmTree, ledgerAccess, listAnswer } from './common'
import { shop } from './purchase'

const noNext = async () => undefined

/**
 * crud() without its generic list: the ledger lists take `fields` and their own flags (system_only, deleted_only).
 * The remaining handlers are crud's own (validated, scoped, audited), re-declared after the routes given here with
 * their requirement plus the realm's ledger_enabled, which every ledger endpoint needs.
 */
function crudWithOwnRoutes(base: Hono<AppEnv>, own: (app: Hono<AppEnv>) => void): Hono<AppEnv> {
  const app = new Hono<AppEnv>()
  own(app)
  for (const r of base.routes) {
    if (r.method === 'GET' && r.path === '/') continue
    const access = endpointAccess(r.handler)
    if (!access || access === 'public') throw new Error(`crud route ${r.method} ${r.path} has no declared requirement`)
    const handler = r.handler as Handler<AppEnv>
    app.on(
      r.method,
      r.path,
      guarded({ ...access, flags: ['ledger_enabled'] }, async (c) => {
        const res = await handler(c, noNext)
        if (res instanceof Response) return res
        throw new Error(`crud route ${r.method} ${r.path} answered nothing`)
      }),
    )
  }
  return app
}

const realmOnly = (c: Ctx, realm: string) => ({
  where: `realm = ? AND deleted_at IS ${c.req.query('deleted_only') === 'true' ? 'NOT NULL' : 'NULL'}`,
  params: [realm],
})

// ---- Packages ---------------------------------------------------------------------------------------------------

/** GET/POST ledger/package, PUT/DELETE ledger/package/{id} (seed 000 §7); a deleted package is only marked. */
export const packages = crudWithOwnRoutes(
  crud(packageEntity, {
    // Reading one package serves its edit screen (the list and the shop carry every field for readers and buyers).
    permissions: { list: 'ledger_package_list', get: 'ledger_package_edit', create: 'ledger_package_create', edit: 'ledger_package_edit' },
    scope: (c, auth) => realmOnly(c, auth.realm),
    create: PackageCreate,
    update: PackageUpdate,
    beforeCreate: (_c, auth, body) => {
      const now = new Date().toISOString()
      return { ...body, id: `pkg_${randomToken(9)}`, realm: auth.realm, created_at: now, updated_at: now, updated_by: auth.nick }
    },
    beforeUpdate: (_c, auth, body) => ({ ...body, updated_at: new Date().toISOString(), updated_by: auth.nick }),
  }),
  (app) => {
    /** enabled, deleted_only, filters, fields, limit/offset; `realm` reaches another realm of the caller's tree. */
    app.get(
      '/',
      guarded(ledgerAccess('ledger_package_list'), async (c, auth) => {
        const realm = c.req.query('realm') || auth.realm
        if (realm !== auth.realm) {
          if (!auth.permissions.has('ledger_package_list_others'))
            throw apiError(403, 'forbidden', 'Permission ledger_package_list_others is required.', 'permission', 'ledger_package_list_others')
          if (!(await inRealmTree(c.env.DB, auth, realm))) throw apiError(403, 'forbidden', `Realm ${realm} is outside your realms.`, 'realm', realm)
        }
        return listAnswer(c, packageEntity, realmOnly(c, realm))
      }),
    )
    app.get('/shop', shop)
    app.delete(
      '/:id',
      guarded(ledgerAccess('ledger_package_delete'), async (c, auth) => {
        const id = pathParam(c, 'id')
        const raw = await getRawRow(c.env.DB, packageEntity, { where: 'realm = ? AND deleted_at IS NULL', params: [auth.realm] }, id)
        if (!raw) throw apiError(404, 'not_found', `ledger_package ${id} was not found.`, 'id', id)
        const now = new Date().toISOString()
        await c.env.DB.batch([
          c.env.DB.prepare('UPDATE ledger_package SET deleted_at = ?, enabled = 0, updated_at = ?, updated_by = ? WHERE id = ? AND realm = ?').bind(
            now,
            now,
            auth.nick,
            id,
            auth.realm,
          ),
          auditStatement(c.env.DB, {
            realm: auth.realm,
            actor: auth.nick,
            action: 'delete',
            entity: 'ledger_package',
            entityId: id,
            before: decodeRow(packageEntity, raw),
            after: { ...decodeRow(packageEntity, raw), deleted_at: now, enabled: false },
            requestId: c.get('requestId'),
          }),
        ])
        return c.body(null, 204)
      }),
    )
  },
)

// ---- Price list ---------------------------------------------------------------------------------------------------

/** The realm and, with should_propagate, every live realm below it (where the ledger is kept; deleted realms are left alone). */
async function propagationRealms(db: D1Database, realm: string, propagate: boolean): Promise<string[]> {
  if (!propagate) return [realm]
  const { results } = await db
    .prepare(
      'WITH RECURSIVE tree(code) AS (SELECT ? UNION SELECT r.code FROM realm r JOIN tree t ON r.parent_code = t.code WHERE r.deleted_at IS NULL) SELECT code FROM tree',
    )
    .bind(realm)
    .all<{ code: string }>()
  return [realm, ...results.map((r) => r.code).filter((c) => c !== realm)]
}

const DeleteOptions = v.object({ should_propagate: Flag, is_system: Flag })

/** GET ledger/content, GET/PUT/DELETE ledger/content/{key} (seed 000 §7): the realm's price list. */
export const contents = crudWithOwnRoutes(
  // Reading one price serves its edit screen; the list carries every field for readers.
  crud(contentEntity, { permissions: { list: 'ledger_content_list', get: 'ledger_content_edit' } }),
  (app) => {
    /** key (a list), system_only, fields, field filters, like, limit (25), offset. */
    app.get(
      '/',
      guarded(ledgerAccess('ledger_content_list'), async (c, auth) =>
        listAnswer(c, contentEntity, { where: `realm = ?${c.req.query('system_only') === 'true' ? ' AND is_system = 1' : ''}`, params: [auth.realm] }),
      ),
    )

    /** Creates the price when missing (name and points required), else changes the given fields; may propagate. */
    app.put(
      '/:key',
      guarded(ledgerAccess('ledger_content_edit'), async (c, auth) => {
        const key = parse(ContentKey, pathParam(c, 'key'))
        const { should_propagate, ...changes } = await readJson(c, ContentPut)
        const db = c.env.DB
        const raw = await getRawRow(db, contentEntity, { where: 'realm = ?', params: [auth.realm] }, key)
        const before = raw ? decodeRow(contentEntity, raw) : null
        const now = new Date().toISOString()
        const after: LedgerContent = {
          realm: auth.realm,
          key,
          name: '',
          description: '',
          points: -1,
          is_system: false,
          ...before,
          ...changes,
          updated_at: now,
          updated_by: auth.nick,
        }
        if (!after.name) throw apiError(400, 'required', 'validation.required', 'name')
        if (after.points < 0) throw apiError(400, 'required', 'validation.required', 'points')
        const set = [...Object.keys(changes), 'updated_at', 'updated_by'].map((f) => `${f} = excluded.${f}`).join(', ')
        const statements: D1PreparedStatement[] = []
        for (const realm of await propagationRealms(db, auth.realm, should_propagate)) {
          statements.push(
            db
              .prepare(
                `INSERT INTO ledger_content (realm, key, name, description, points, is_system, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (realm, key) DO UPDATE SET ${set}`,
              )
              .bind(realm, key, after.name, after.description, after.points, after.is_system ? 1 : 0, now, auth.nick),
            auditStatement(db, {
              realm,
              actor: auth.nick,
              actorRealm: auth.realm,
              action: before || realm !== auth.realm ? 'update' : 'create',
              entity: 'ledger_content',
              entityId: key,
              before: realm === auth.realm ? before : null,
              after: realm === auth.realm ? after : { ...changes },
              requestId: c.get('requestId'),
            }),
          )
        }
        await db.batch(statements)
        return c.json(after, before ? 200 : 201)
      }),
    )

    /** Removes a price (and below, with should_propagate). A system price goes only when the call says is_system. */
    app.delete(
      '/:key',
      guarded(ledgerAccess('ledger_content_delete'), async (c, auth) => {
        const key = parse(ContentKey, pathParam(c, 'key'))
        // The flags may come in the query string or, as some clients send them with DELETE, in a JSON body.
        const sent = c.req.header('content-type')?.includes('application/json')
          ? await readJson(c, v.partial(v.object({ should_propagate: v.boolean(), is_system: v.boolean() })))
          : {}
        const query = readQuery(c, DeleteOptions)
        const opts = { should_propagate: sent.should_propagate ?? query.should_propagate, is_system: sent.is_system ?? query.is_system }
        const db = c.env.DB
        const raw = await getRawRow(db, contentEntity, { where: 'realm = ?', params: [auth.realm] }, key)
        if (!raw) throw apiError(404, 'not_found', `ledger_content ${key} was not found.`, 'key', key)
        const row = decodeRow(contentEntity, raw)
        if (row.is_system && !opts.is_system) throw apiError(409, 'system_content', 'ledger.error.system_content', 'is_system', false)
        const statements: D1PreparedStatement[] = []
        for (const realm of await propagationRealms(db, auth.realm, opts.should_propagate)) {
          statements.push(
            db.prepare('DELETE FROM ledger_content WHERE realm = ? AND key = ?').bind(realm, key),
            auditStatement(db, {
              realm,
              actor: auth.nick,
              actorRealm: auth.realm,
              action: 'delete',
              entity: 'ledger_content',
              entityId: key,
              before: realm === auth.realm ? row : { key },
              requestId: c.get('requestId'),
            }),
          )
        }
        await db.batch(statements)
        return c.body(null, 204)
      }),
    )
  },
)
