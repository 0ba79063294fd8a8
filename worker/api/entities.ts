import type { Hono } from 'hono'
import { PLAIN_ENTITIES } from '#shared/entities/index'
import { permissionOf, type PlainEntity } from '#shared/entities/define'
import { crud } from '../lib/entity'
import type { AppEnv } from './context'
import { created, refuseInUse, updated } from './tms/taxonomy'

/**
 * The API of one plain entity, read from its declaration: list/get/create/update/delete behind its permissions
 * (an editor may read what it edits), inside the caller's realm, stamped, and refusing to delete a row in use.
 */
export function entityApi(e: PlainEntity): Hono<AppEnv> {
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
    beforeCreate: (_c, auth, body) => ({ ...(body as Record<string, unknown>), ...created(auth) }),
    beforeUpdate: (_c, auth, body) => ({ ...(body as Record<string, unknown>), ...updated(auth) }),
    beforeDelete: e.inUse ? (c, auth, existing) => refuseInUse(c, auth, e.inUse!, String(existing[e.key])) : undefined,
  })
}

/** Mounts every declared plain entity at `/<api>` of the realm API. */
export function mountEntities(api: Hono<AppEnv>) {
  for (const e of PLAIN_ENTITIES) api.route(`/${e.api}`, entityApi(e))
}
