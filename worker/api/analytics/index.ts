import { Hono } from 'hono'
import { AnalyticsQuery, HIGH_VOLUME_ROWS, SessionReportQuery, type AnalyticsTab } from '#shared/schemas/analytics'
import type { Access } from '#shared/access'
import {
  analyticsTab,
  categoryRooms,
  dayWindow,
  filterOptions,
  roomInRealms,
  sessionReport,
  watchVolumeExceeded,
  type AnalyticsScope,
} from '../../db/analytics'
import { liveRealmSubtree, realmInScope, realmTimeZone, realmTreeScope } from '../../db/realms'
import type { Auth } from '../../db/sessions'
import { apiError } from '../../lib/errors'
import { guarded } from '../../lib/guard'
import { type AppEnv, type Ctx, readQuery } from '../context'

/**
 * The realms, rooms and calendar a query counts: the caller's realm, or one of their realm tree (with its live
 * children when `children=true`); a room of those realms, or the rooms of a room category.
 */
async function scopeOf(c: Ctx, auth: Auth, q: { realm?: string; children?: string; room?: string; category?: string }): Promise<AnalyticsScope> {
  const db = c.env.DB
  const realm = q.realm ?? auth.realm
  if (realm !== auth.realm && !(await realmInScope(db, realm, realmTreeScope(auth))))
    throw apiError(403, 'forbidden', `Realm ${realm} is outside your realms.`, 'realm', realm)
  const realms = q.children === 'true' ? await liveRealmSubtree(db, realm) : [realm]
  const timeZone = (await realmTimeZone(db, realm)) || 'America/Sao_Paulo'
  let rooms: string[] | null = null
  if (q.room) {
    if (!(await roomInRealms(db, realms, q.room))) throw apiError(404, 'not_found', 'No such room.', 'room', q.room)
    rooms = [q.room]
  }
  if (q.category) {
    const inCategory = await categoryRooms(db, realms, q.category)
    if (!inCategory) throw apiError(404, 'not_found', 'No such room category.', 'category', q.category)
    rooms = rooms ? rooms.filter((r) => inCategory.includes(r)) : inCategory
  }
  return { realms, rooms, timeZone }
}

const tab = (name: AnalyticsTab, access: Access) =>
  guarded(access, async (c, auth) => {
    const q = readQuery(c, AnalyticsQuery)
    const scope = await scopeOf(c, auth, q)
    return c.json({ ...(await analyticsTab(c.env.DB, scope, name, q)), options: await filterOptions(c.env.DB, scope.realms) })
  })

/** Analytics (issue 19, seed 002 §2): general, task (activity) and session tabs, and the session reports. */
export const analytics = new Hono<AppEnv>()
  .get('/general', tab('general', { all: ['analytics_analytics_module', 'analytics_global_module'] }))
  .get('/task', tab('activity', { all: ['analytics_tms_module'] }))
  .get('/session', tab('session', { all: ['analytics_csm_module'] }))
  .get(
    '/session-report',
    guarded({ all: ['reports_reports_module'] }, async (c, auth) => {
      const q = readQuery(c, SessionReportQuery)
      const scope = await scopeOf(c, auth, q)
      const w = dayWindow(scope.timeZone, q.start_at, q.end_at)
      if (await watchVolumeExceeded(c.env.DB, scope.realms, w.from, w.to, HIGH_VOLUME_ROWS))
        throw apiError(422, 'narrow_range', 'Too much data in this period: narrow the date range.', 'end_at', q.end_at)
      return c.json({ ...(await sessionReport(c.env.DB, { ...scope, nick: q.nick }, q.report, q)), options: await filterOptions(c.env.DB, scope.realms) })
    }),
  )
