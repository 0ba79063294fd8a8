import { Hono } from 'hono'
import { PLAIN_ENTITIES } from '#shared/entities/index'
import { permissionOf, type PlainEntity } from '#shared/entities/define'
import { crud, type CrudApi } from '../lib/entity'
import type { Auth } from '../db/sessions'
import type { AppEnv, Ctx } from './context'
import { checkCategory, checkSkill, created, refuseInUse, updated } from './tms/taxonomy'
import { checkObjective, checkTrack } from './achievement/rules'

/**
 * Rules a declaration cannot state because they read other rows (checked before a create, and before an update
 * with the row as it was). A plain entity has none; one entry here is the whole API code of one that does.
 */
type Rule = (c: Ctx, auth: Auth, body: never, existing?: never) => Promise<void>
const RULES: Record<string, Rule> = {
  achievement_objective: checkObjective as Rule,
  achievement_track: checkTrack as Rule,
  tms_assessed_skill: checkSkill as Rule,
  tms_category: checkCategory as Rule,
}

/**
 * The API of one plain entity, read from its declaration: list/get/create/update/delete behind its permissions
 * (an editor may read what it edits), inside the caller's realm, stamped, and refusing to delete a row in use.
 */
export function entityApi(e: PlainEntity): CrudApi<Record<string, unknown>> {
  const rule = RULES[e.name]
  return crud(e, {
    permissions: {
      list: permissionOf(e, 'list'),
      get: [permissionOf(e, 'get'), permissionOf(e, 'edit')],
      create: permissionOf(e, 'create'),
      edit: permissionOf(e, 'edit'),
      delete: permissionOf(e, 'delete'),
    },
    create: e.input,
    update: e.input,
    beforeCreate: async (c, auth, body) => {
      await rule?.(c, auth, body as never)
      return { ...(body as Record<string, unknown>), ...created(auth) }
    },
    beforeUpdate: async (c, auth, body, existing) => {
      await rule?.(c, auth, body as never, existing as never)
      return { ...(body as Record<string, unknown>), ...updated(auth) }
    },
    beforeDelete: e.inUse ? (c, auth, existing) => refuseInUse(c, auth, e.inUse!, String(existing[e.key])) : undefined,
  })
}

/**
 * Every declared plain entity at `/<api>` (but those serving their own), mounted at the realm API's root. Their paths
 * come from the declarations, so the typed client reaches them through `CrudApi` (app/server/api.server.ts `entity`).
 */
export function entityRoutes() {
  const app = new Hono<AppEnv>()
  for (const e of PLAIN_ENTITIES) if (!e.ownApi) app.route(`/${e.api}`, entityApi(e))
  return app
}
