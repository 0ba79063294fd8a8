import { Hono } from 'hono'
import type { AnalyticsRealms } from '#shared/schemas/analytics-realms'
import { liveRealms, realmTreeList, realmTreeScope } from '../../db/realms'
import { guarded } from '../../lib/guard'
import type { AppEnv } from '../context'

/** How many realms the picker lists at most (the realm list's limit, seed 000 §9). */
const LIMIT = 1000

/**
 * GET analytics/realms: the realms an analytics query may name (`realm=`), for the pages' realm picker — the
 * caller's current realm and the live realms of their realm tree (`realmTreeScope`, the very rule the analytics
 * queries check), in tree order (parent, then its children by name) with their depth.
 */
export const analyticsRealms = new Hono<AppEnv>().get(
  '/',
  guarded(
    { any: ['analytics_analytics_module', 'analytics_tms_module', 'analytics_csm_module', 'analytics_ledger_module', 'reports_reports_module'] },
    async (c, auth) => {
      const realms = await realmTreeList(c.env.DB, liveRealms(realmTreeScope(auth)), auth.realm, LIMIT)
      return c.json({ current: auth.realm, realms } satisfies AnalyticsRealms)
    },
  ),
)
