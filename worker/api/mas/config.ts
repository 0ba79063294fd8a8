import { Hono } from 'hono'
import { runBatch } from '../../db/batch'
import { GlobalConfigUpdate } from '#shared/schemas/realm-settings'
import { getGlobalConfig, setGlobalConfigStatement } from '../../db/global-config'
import { auditStatement } from '../../db/audit'
import { guarded, guardedJson } from '../../lib/guard'
import { type AppEnv } from '../context'

/** GET/PUT /mas/config: the platform-wide configuration (seed 000 §7). */
export const config = new Hono<AppEnv>()
  .get(
    '/',
    guarded({ all: ['mas_config_get'] }, async (c) => c.json(await getGlobalConfig(c.env.DB))),
  )
  /** It applies to every realm, so changing it also needs mas_realm_list_all (a platform operator), not a realm's admin. */
  .put(
    '/',
    guardedJson({ all: ['mas_config_edit', 'mas_realm_list_all'] }, GlobalConfigUpdate, async (c, auth, body) => {
      const { updated_at: _a, updated_by: _b, ...before } = await getGlobalConfig(c.env.DB)
      const after = { ...before, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) }
      await runBatch(c.env.DB, [
        setGlobalConfigStatement(c.env.DB, after, auth.nick),
        auditStatement(c.env.DB, {
          realm: auth.realm,
          actor: auth.nick,
          action: 'update',
          entity: 'global_config',
          entityId: 'global',
          before,
          after,
          requestId: c.get('requestId'),
        }),
      ])
      return c.json(await getGlobalConfig(c.env.DB))
    }),
  )
