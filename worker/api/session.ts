import { Hono } from 'hono'
import { permissionMap } from '../../app/schemas/permission'
import { guarded } from '../lib/guard'
import type { AppEnv } from './context'

export const session = new Hono<AppEnv>()

/** GET /mas/session: the caller's auth state (seed 000 §3) with the effective permissions of all their roles. */
session.get(
  '/',
  guarded({}, (c, auth) =>
    c.json({
    realm: auth.realm,
    nick: auth.nick,
    name: auth.name,
    avatar_url: auth.avatar_url,
    origin_realm: auth.origin_realm,
    device_id: auth.device_id,
    role: auth.role,
    roles: auth.roles,
    permissions: permissionMap(auth.permissions),
      server_ts: new Date().toISOString(),
    }),
  ),
)
