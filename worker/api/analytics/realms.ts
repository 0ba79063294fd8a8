import { Hono } from 'hono'
import type { AnalyticsRealms } from '#shared/schemas/analytics-realms'
import { liveRealms, realmTreeScope } from '../../db/realms'
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
      const scope = liveRealms(realmTreeScope(auth))
      const [tree, own] = await c.env.DB.batch<{ code: string; name: string; parent_code: string | null }>([
        c.env.DB.prepare(`SELECT code, name, parent_code FROM realm WHERE ${scope.where} ORDER BY name, code LIMIT ${LIMIT}`).bind(...scope.params),
        c.env.DB.prepare('SELECT code, name, parent_code FROM realm WHERE code = ?').bind(auth.realm),
      ])
      const rows = new Map([...tree.results, ...own.results].map((r) => [r.code, r]))
      // Siblings by name; a realm whose parent is not listed is a root of the picker.
      const children = new Map<string | null, string[]>()
      for (const r of [...rows.values()].sort((a, b) => a.name.localeCompare(b.name) || a.code.localeCompare(b.code))) {
        const parent = r.parent_code && r.parent_code !== r.code && rows.has(r.parent_code) ? r.parent_code : null
        children.set(parent, [...(children.get(parent) ?? []), r.code])
      }
      const realms: AnalyticsRealms['realms'] = []
      const seen = new Set<string>()
      const walk = (parent: string | null, depth: number) => {
        for (const code of children.get(parent) ?? []) {
          if (seen.has(code)) continue
          seen.add(code)
          realms.push({ code, name: rows.get(code)!.name, depth })
          walk(code, depth + 1)
        }
      }
      walk(null, 0)
      return c.json({ current: auth.realm, realms } satisfies AnalyticsRealms)
    },
  ),
)
