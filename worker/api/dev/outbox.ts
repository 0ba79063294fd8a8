import { Hono } from 'hono'
import { recentOutboxMail } from '../../db/outbox'
import { guarded } from '../../lib/guard'
import { devMode } from '../../lib/dev-mode'
import { type AppEnv } from '../context'

/**
 * GET /dev/outbox: the latest e-mails of the local outbox, for the realm the caller signs in to. It exists only
 * while the Worker runs in development mode (otherwise 404, so a deployed Worker does not even advertise it), and
 * answers only a signed-in staff member (dashboard access) of that realm: the messages hold live reset links.
 * The realm's `development` flag plays no part.
 */
export const outbox = new Hono<AppEnv>().get(
  '/',
  guarded(
    { all: ['dashboard_dashboard_access'] },
    async (c, auth) => {
      return c.json({ items: await recentOutboxMail(c.env.DB, auth.realm) })
    },
    devMode,
  ),
)
