import { Hono } from 'hono'
import { ListQuery } from '#shared/schemas/common'
import { RoleName } from '#shared/schemas/role'
import { Nick, USER_SEARCH_MIN, UserCreate, UserDisable, UserUpdate, userEntity, type User } from '#shared/schemas/user'
import { revokeUserSessionsStatement, type Auth } from '../../db/sessions'
import { runBatch } from '../../db/batch'
import { realmNickSuffix } from '../../db/realms'
import { listRoleNames } from '../../db/roles'
import { USER_ROLES_COLUMN, deleteUserStatement, getUser, rolePermissionSets, setUserDisabledStatement, usersWithRole } from '../../db/user-admin'
import { auditStatement } from '../../db/audit'
import { ROOT_ROLE, beyondCaller, isSelf, mayTouchRoot, refuseAboveUser, userCeiling } from '../../lib/ceiling'
import { filterScope, listRows, realmScope, type Scope } from '../../lib/entity'
import { apiError } from '../../lib/errors'
import { guarded, guardedJson } from '../../lib/guard'
import { channelsOwnedBy } from '../../db/channels'
import { type AppEnv, type Ctx, parse, pathParam } from '../context'
import { ImportBody, importUsers } from './user-import'
import { planUserWrite, realmNick, refuseForeign, userWriteContext } from './user-write'

/** The user list's text filters (`like` filters of the entity), each a search of at least USER_SEARCH_MIN characters. */
const USER_SEARCH_FIELDS = Object.entries(userEntity.fields)
  .filter(([, def]) => def.filter === 'like')
  .map(([name]) => name)

async function load(c: Ctx, auth: Auth): Promise<User> {
  const nick = parse(Nick, pathParam(c, 'nick'))
  const found = await getUser(c.env.DB, auth.realm, nick)
  if (!found) throw apiError(404, 'not_found', `User ${nick} was not found.`, 'nick', nick)
  return found
}

/** The user ceiling for disabling or deleting `target` (403 when they hold more than the caller). */
async function refuseAbove(c: Ctx, auth: Auth, target: User) {
  refuseAboveUser(auth, auth.realm, target, await rolePermissionSets(c.env.DB, auth.realm))
}

export const user = new Hono<AppEnv>()
  /**
   * GET /mas/user: users of the caller's realm (limit, offset, order, field filters, `role`). A `like` search needs
   * at least 3 characters (seed 002 §5); it matches nick, name, e-mail, phone and external id.
   */
  .get(
    '/',
    guarded({ all: ['mas_user_list'] }, async (c, auth) => {
      const query = parse(ListQuery, c.req.query())
      if (query.like && query.like.length < USER_SEARCH_MIN) throw apiError(400, 'min_search', 'validation.min_search', 'like', USER_SEARCH_MIN)
      // The text filters (nick, name, e-mail) are searches too: the same minimum applies to each.
      for (const field of USER_SEARCH_FIELDS) {
        const text = c.req.query(field)?.trim()
        if (text && text.length < USER_SEARCH_MIN) throw apiError(400, 'min_search', 'validation.min_search', field, USER_SEARCH_MIN)
      }
      const filters = filterScope(userEntity, c.req.query())
      const role = c.req.query('role') ? parse(RoleName, c.req.query('role')) : null
      const byRole: Scope | undefined = role ? usersWithRole(auth.realm, role) : undefined
      const extra = [filters, byRole].filter((s): s is Scope => s !== undefined)
      const merged = extra.length ? { where: extra.map((s) => `(${s.where})`).join(' AND '), params: extra.flatMap((s) => s.params) } : undefined
      const page = await listRows(c.env.DB, userEntity, realmScope(userEntity, auth), query, merged, { computed: { roles: USER_ROLES_COLUMN } })
      return c.json({ ...page, items: page.items.map((u) => ({ ...u, roles: JSON.parse(String((u as { roles?: unknown }).roles ?? '[]')) as string[] })) })
    }),
  )
  /** GET /mas/user/roles: the realm's roles, each saying whether the caller may give it (holds all it grants). */
  .get(
    '/roles',
    guarded({ any: ['mas_user_create', 'mas_user_edit'] }, async (c, auth) => {
      const w = await userWriteContext(c, auth)
      const results = await listRoleNames(c.env.DB, auth.realm)
      return c.json({
        items: results.map((r) => ({
          ...r,
          assignable: beyondCaller(auth, w.roles.get(r.role) ?? []) === undefined && (r.role !== ROOT_ROLE || mayTouchRoot(auth)),
        })),
      })
    }),
  )
  /** POST /mas/user/import: CSV import with a per-row report (`dry_run` checks without writing). */
  .post(
    '/import',
    guardedJson({ all: ['mas_user_import'] }, ImportBody, async (c, auth, body) => c.json(await importUsers(c, auth, body.csv, body.dry_run))),
  )
  /**
   * GET /mas/user/{nick}: the user with roles and supervisees (mas_user_edit reads what it edits), and `ceiling`: the
   * refusal any write to them would get because they hold more than the caller (null when the caller may edit them).
   */
  .get(
    '/:nick',
    guarded({ any: ['mas_user_get', 'mas_user_edit'] }, async (c, auth) => {
      const found = await load(c, auth)
      const ceiling = isSelf(auth, auth.realm, found.nick) ? null : userCeiling(auth, found.roles, await rolePermissionSets(c.env.DB, auth.realm))
      return c.json({ ...found, ceiling })
    }),
  )
  /** POST /mas/user: creates a user of the caller's realm (its origin realm). */
  .post(
    '/',
    guardedJson({ all: ['mas_user_create'] }, UserCreate, async (c, auth, body) => {
      const nick = realmNick(body.nick, await realmNickSuffix(c.env.DB, auth.realm), true)
      if (await getUser(c.env.DB, auth.realm, nick)) throw apiError(409, 'conflict', `User ${nick} already exists.`, 'nick', nick)
      await runBatch(c.env.DB, await planUserWrite(c, auth, await userWriteContext(c, auth), { ...body, nick }, null))
      return c.json((await getUser(c.env.DB, auth.realm, nick))!, 201)
    }),
  )
  /** PUT /mas/user/{nick}: changes the fields sent; refused for users whose origin realm is another one. */
  .put(
    '/:nick',
    guardedJson({ all: ['mas_user_edit'] }, UserUpdate, async (c, auth, body) => {
      const existing = await load(c, auth)
      refuseForeign(auth, existing)
      await runBatch(c.env.DB, await planUserWrite(c, auth, await userWriteContext(c, auth), body, existing))
      return c.json(await getUser(c.env.DB, auth.realm, existing.nick))
    }),
  )
  /** PUT /mas/user/{nick}/disable: `{disabled}`; disabling ends every session of the user in the same batch. */
  .put(
    '/:nick/disable',
    guardedJson({ all: ['mas_user_disable'] }, UserDisable, async (c, auth, { disabled }) => {
      const existing = await load(c, auth)
      refuseForeign(auth, existing)
      if (isSelf(auth, auth.realm, existing.nick)) throw apiError(409, 'lockout', 'You cannot disable yourself.', 'nick', existing.nick)
      await refuseAbove(c, auth, existing)
      if (disabled !== existing.disabled) {
        const db = c.env.DB
        await runBatch(db, [
          setUserDisabledStatement(db, auth.realm, existing.nick, disabled),
          ...(disabled ? [revokeUserSessionsStatement(db, auth.realm, existing.nick)] : []),
          auditStatement(db, {
            realm: auth.realm,
            actor: auth.nick,
            action: disabled ? 'disable' : 'enable',
            entity: 'user',
            entityId: existing.nick,
            before: { disabled: existing.disabled },
            after: { disabled },
            requestId: c.get('requestId'),
          }),
        ])
      }
      return c.json(await getUser(c.env.DB, auth.realm, existing.nick))
    }),
  )
  /** DELETE /mas/user/{nick}: removes the user (their roles and sessions go with them). */
  .delete(
    '/:nick',
    guarded({ all: ['mas_user_delete'] }, async (c, auth) => {
      const existing = await load(c, auth)
      refuseForeign(auth, existing)
      if (isSelf(auth, auth.realm, existing.nick)) throw apiError(409, 'lockout', 'You cannot delete yourself.', 'nick', existing.nick)
      await refuseAbove(c, auth, existing)
      // A channel has exactly one owner: its owner goes only after handing the ownership to another member.
      const owned = await channelsOwnedBy(c.env.DB, auth.realm, existing.nick)
      if (owned.length) throw apiError(409, 'in_use', 'channel.owner_cannot_be_deleted', 'nick', owned.join(', '))
      const { roles, supervisees, ...rest } = existing
      await runBatch(c.env.DB, [
        deleteUserStatement(c.env.DB, auth.realm, existing.nick),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'delete',
          entity: 'user',
          entityId: existing.nick,
          before: { name: rest.name, email: rest.email, roles, supervisees },
          requestId: c.get('requestId'),
        }),
      ])
      return c.body(null, 204)
    }),
  )
