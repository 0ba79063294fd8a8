import { Hono } from 'hono'
import * as v from 'valibot'
import { ListQuery } from '#shared/schemas/common'
import { PermissionFlags, RoleCreate, RoleName, RoleUpdate, roleEntity } from '#shared/schemas/role'
import { runBatch } from '../../db/batch'
import { liveRealms, realmInScope } from '../../db/realms'
import {
  deleteRoleStatement,
  getRole,
  insertRoleStatement,
  rolePermissionCounts,
  rolePermissions,
  roleUsage,
  setRolePermissionsStatements,
  updateRoleStatement,
} from '../../db/roles'
import type { Auth } from '../../db/sessions'
import { filterScope, listRows } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { auditStatement } from '../../db/audit'
import { refuseBeyondGrant, refuseOwnRole } from '../../lib/ceiling'
import { guarded, guardedJson } from '../../lib/guard'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { realmTreeScope } from './realm'

const RealmParam = v.object({ realm: v.optional(v.pipe(v.string(), v.trim())) })

/** The realm a role call addresses: the caller's, or one of the realms they administer (`realm` parameter or body). */
async function targetRealm(c: Ctx, auth: Auth, wanted: string | undefined): Promise<string> {
  if (!wanted || wanted === auth.realm) return auth.realm
  const scope = realmTreeScope(auth)
  if (!(await realmInScope(c.env.DB, wanted, liveRealms(scope)))) throw apiError(403, 'forbidden', `Realm ${wanted} is outside your realms.`, 'realm', wanted)
  return wanted
}

export const permission = new Hono<AppEnv>()
  /** GET /mas/permission?realm=: the roles of a realm (limit, offset, like, order), with how many permissions each grants. */
  .get(
    '/',
    guarded({ all: ['mas_role_list'] }, async (c, auth) => {
      const realm = await targetRealm(c, auth, parse(RealmParam, { realm: c.req.query('realm') }).realm)
      const query = parse(ListQuery, c.req.query())
      const page = await listRows(c.env.DB, roleEntity, { where: 'realm = ?', params: [realm] }, query, filterScope(roleEntity, c.req.query()))
      const counts = await rolePermissionCounts(c.env.DB, realm)
      return c.json({ ...page, items: page.items.map((r) => ({ ...r, permission_count: counts.get(r.role) ?? 0 })) })
    }),
  )
  /** GET /mas/permission/{role}: the role's permission map. Callers read their own roles; others need mas_role_get. */
  .get(
    '/:role',
    guarded({}, async (c, auth) => {
      const name = parse(RoleName, pathParam(c, 'role'))
      const realm = await targetRealm(c, auth, c.req.query('realm'))
      const own = realm === auth.realm && auth.roles.includes(name)
      if (!own && !auth.permissions.has('mas_role_get')) {
        throw apiError(403, 'forbidden', 'Permission mas_role_get is required.', 'permission', 'mas_role_get')
      }
      // The caller's own roles live in their home realm (the same realm unless they switched realms).
      const role = await getRole(c.env.DB, own ? auth.home_realm : realm, name)
      if (!role) throw apiError(404, 'not_found', `Role ${name} was not found.`, 'role', name)
      return c.json(role)
    }),
  )
  /** POST /mas/permission: creates a role from its name, description and permission flags (only flags the caller holds may be on). */
  .post(
    '/',
    guardedJson({ all: ['mas_role_create'] }, RoleCreate, async (c, auth, body) => {
      const flags = parse(PermissionFlags, body)
      const realm = await targetRealm(c, auth, typeof body.realm === 'string' ? body.realm : undefined)
      refuseOwnRole(auth, realm, body.role)
      if (await getRole(c.env.DB, realm, body.role)) throw apiError(409, 'conflict', `Role ${body.role} already exists.`, 'role', body.role)
      const granted = Object.entries(flags)
        .filter(([, on]) => on)
        .map(([p]) => p)
      refuseBeyondGrant(auth, [], granted)
      await runBatch(c.env.DB, [
        insertRoleStatement(c.env.DB, realm, body.role, body.description, auth.nick),
        ...setRolePermissionsStatements(c.env.DB, realm, body.role, granted),
        auditStatement(c.env.DB, {
          realm,
          actor: auth.nick,
          actorRealm: auth.realm,
          action: 'create',
          entity: 'role',
          entityId: body.role,
          after: { description: body.description, permissions: granted.sort() },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(await getRole(c.env.DB, realm, body.role), 201)
    }),
  )
  /**
   * PUT /mas/permission/{role}: new description and/or permission flags; flags left out keep their value. Only flags the
   * caller holds may change (sent unchanged, the others pass), and never on a role the caller holds.
   */
  .put(
    '/:role',
    guardedJson({ all: ['mas_role_edit'] }, RoleUpdate, async (c, auth, body) => {
      const name = parse(RoleName, pathParam(c, 'role'))
      const flags = parse(PermissionFlags, body)
      const realm = await targetRealm(c, auth, typeof body.realm === 'string' ? body.realm : c.req.query('realm'))
      const existing = await getRole(c.env.DB, realm, name)
      if (!existing) throw apiError(404, 'not_found', `Role ${name} was not found.`, 'role', name)
      const before = await rolePermissions(c.env.DB, realm, name)
      const granted = new Set(before)
      for (const [p, on] of Object.entries(flags)) {
        if (on) granted.add(p)
        else granted.delete(p)
      }
      // The ceiling first: it names the permission, which says more than "your own role".
      refuseBeyondGrant(auth, before, granted)
      refuseOwnRole(auth, realm, name)
      await runBatch(c.env.DB, [
        updateRoleStatement(c.env.DB, realm, name, body.description ?? existing.description, auth.nick),
        ...setRolePermissionsStatements(c.env.DB, realm, name, granted),
        auditStatement(c.env.DB, {
          realm,
          actor: auth.nick,
          actorRealm: auth.realm,
          action: 'update',
          entity: 'role',
          entityId: name,
          before: { description: existing.description, permissions: before.sort() },
          after: { description: body.description ?? existing.description, permissions: [...granted].sort() },
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(await getRole(c.env.DB, realm, name))
    }),
  )
  /** DELETE /mas/permission/{role}: refused while any user holds the role, for a role of the caller's, and for one granting more than the caller holds. */
  .delete(
    '/:role',
    guarded({ all: ['mas_role_delete'] }, async (c, auth) => {
      const name = parse(RoleName, pathParam(c, 'role'))
      const realm = await targetRealm(c, auth, c.req.query('realm'))
      const existing = await getRole(c.env.DB, realm, name)
      if (!existing) throw apiError(404, 'not_found', `Role ${name} was not found.`, 'role', name)
      refuseOwnRole(auth, realm, name)
      // Deleting a role turns every permission of it off: the same ceiling as an edit.
      const before = await rolePermissions(c.env.DB, realm, name)
      refuseBeyondGrant(auth, before, [])
      const users = await roleUsage(c.env.DB, realm, name)
      if (users > 0) throw apiError(409, 'in_use', `Role ${name} is held by ${users} user(s); give them another role first.`, 'role', users)
      await runBatch(c.env.DB, [
        deleteRoleStatement(c.env.DB, realm, name),
        auditStatement(c.env.DB, {
          realm,
          actor: auth.nick,
          actorRealm: auth.realm,
          action: 'delete',
          entity: 'role',
          entityId: name,
          before: { description: existing.description, permissions: before.sort() },
          requestId: c.get('requestId'),
        }),
      ])
      return c.body(null, 204)
    }),
  )
