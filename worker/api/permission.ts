import { Hono } from 'hono'
import { getRole } from '../db/roles'
import { apiError } from '../lib/errors'
import { type AppEnv, requireAuth } from './context'

export const permission = new Hono<AppEnv>()

/** GET /mas/permission/{role}: the role's permission map. Callers read their own roles; others need mas_role_get. */
permission.get('/:role', async (c) => {
  const auth = await requireAuth(c)
  const name = c.req.param('role')
  if (!auth.roles.includes(name) && !auth.permissions.has('mas_role_get')) {
    throw apiError(403, 'forbidden', 'Permission mas_role_get is required.', 'permission', 'mas_role_get')
  }
  // The caller's own roles live in their home realm (the same realm unless they switched realms).
  const role = await getRole(c.env.DB, auth.roles.includes(name) ? auth.home_realm : auth.realm, name)
  if (!role) throw apiError(404, 'not_found', `Role ${name} was not found.`, 'role', name)
  return c.json(role)
})
