import { packageEntity } from '#shared/schemas/ledger-entity'
import { runBatch } from '../../db/batch'
import { packagesOnSale, softDeletePackageStatement } from '../../db/ledger-catalog'
import { decodeRow, crud, getRawRow } from '../../lib/entity'
import { guarded } from '../../lib/guard'
import { PROVIDERS } from '../../lib/payments'
import { pathParam, type Ctx } from '../context'
import { ledgerAccess, inRealmTree, listAnswer, realmDevelopment, crudWithOwnRoutes } from './common'
import { PackageCreate, PackageUpdate } from '#shared/schemas/ledger'
import { auditStatement } from '../../db/audit'
import { randomToken } from '../../lib/crypto'
import { apiError } from '../../lib/errors'

const realmOnly = (c: Ctx, realm: string) => ({
  where: `realm = ? AND deleted_at IS ${c.req.query('deleted_only') === 'true' ? 'NOT NULL' : 'NULL'}`,
  params: [realm],
})

// ---- Packages ---------------------------------------------------------------------------------------------------

/** Every provider of this build with whether it can take payments in the realm (the UI says plainly when not). */
async function providersFor(env: Env, realm: string) {
  const development = await realmDevelopment(env.DB, realm)
  return Promise.all(PROVIDERS.map(async (p) => ({ code: p.code, kind: p.kind, sandbox: p.sandbox, available: await p.available(env, { development }) })))
}

/** GET ledger/package/shop: the packages on sale (enabled, not deleted) and the payment providers, for any buyer. */
export const shop = guarded(ledgerAccess(), async (c, auth) => {
  return c.json({
    packages: (await packagesOnSale(c.env.DB, auth.realm)).map((r) => decodeRow(packageEntity, r)),
    providers: await providersFor(c.env, auth.realm),
  })
})

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
    return app
      .get(
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
      .get('/shop', shop)
      .delete(
        '/:id',
        guarded(ledgerAccess('ledger_package_delete'), async (c, auth) => {
          const id = pathParam(c, 'id')
          const raw = await getRawRow(c.env.DB, packageEntity, { where: 'realm = ? AND deleted_at IS NULL', params: [auth.realm] }, id)
          if (!raw) throw apiError(404, 'not_found', `ledger_package ${id} was not found.`, 'id', id)
          const now = new Date().toISOString()
          await runBatch(c.env.DB, [
            softDeletePackageStatement(c.env.DB, auth.realm, id, auth.nick, now),
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
