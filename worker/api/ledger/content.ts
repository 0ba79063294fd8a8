import { contentEntity, type LedgerContent } from '#shared/schemas/ledger-entity'
import { runBatch } from '../../db/batch'
import { deleteContentStatement, upsertContentStatement } from '../../db/ledger-catalog'
import { liveRealmSubtree } from '../../db/realms'
import { decodeRow, crud, getRawRow } from '../../lib/entity'
import { guarded, guardedJson } from '../../lib/guard'
import { pathParam, parse, readJson, readQuery } from '../context'
import { ledgerAccess, Flag, listAnswer, crudWithOwnRoutes } from './common'
import * as v from 'valibot'
import { ContentKey, ContentPut } from '#shared/schemas/ledger'
import { auditStatement } from '../../db/audit'
import { apiError } from '../../lib/errors'

/** The realm and, with should_propagate, every live realm below it (where the ledger is kept; deleted realms are left alone). */
async function propagationRealms(db: D1Database, realm: string, propagate: boolean): Promise<string[]> {
  if (!propagate) return [realm]
  return liveRealmSubtree(db, realm)
}

const DeleteOptions = v.object({ should_propagate: Flag, is_system: Flag })

/** GET ledger/content, GET/PUT/DELETE ledger/content/{key} (seed 000 §7): the realm's price list. */
export const content = crudWithOwnRoutes(
  // Reading one price serves its edit screen; the list carries every field for readers.
  crud(contentEntity, { permissions: { list: 'ledger_content_list', get: 'ledger_content_edit' } }),
  (app) => {
    /** key (a list), system_only, fields, field filters, like, limit (25), offset. */
    return (
      app
        .get(
          '/',
          guarded(ledgerAccess('ledger_content_list'), async (c, auth) =>
            listAnswer(c, contentEntity, { where: `realm = ?${c.req.query('system_only') === 'true' ? ' AND is_system = 1' : ''}`, params: [auth.realm] }),
          ),
        )

        /** Creates the price when missing (name and points required), else changes the given fields; may propagate. */
        .put(
          '/:key',
          guardedJson(ledgerAccess('ledger_content_edit'), ContentPut, async (c, auth, body) => {
            const key = parse(ContentKey, pathParam(c, 'key'))
            const { should_propagate, ...changes } = body
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
            const statements: D1PreparedStatement[] = []
            for (const realm of await propagationRealms(db, auth.realm, should_propagate)) {
              statements.push(
                upsertContentStatement(db, realm, after, Object.keys(changes)),
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
            await runBatch(db, statements)
            return c.json(after, before ? 200 : 201)
          }),
        )

        /** Removes a price (and below, with should_propagate). A system price goes only when the call says is_system. */
        .delete(
          '/:key',
          guarded(ledgerAccess('ledger_content_delete'), async (c, auth) => {
            const key = parse(ContentKey, pathParam(c, 'key'))
            // The flags may come in the query string or, as some clients send them with DELETE, in a JSON body: read only
            // when one is sent (a DELETE has no body as a rule), so this endpoint is not guardedJson.
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
                deleteContentStatement(db, realm, key),
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
            await runBatch(db, statements)
            return c.body(null, 204)
          }),
        )
    )
  },
)
