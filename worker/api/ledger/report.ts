import { Hono } from 'hono'
import { realmInScope, realmTimeZone } from '../../db/realms'
import { apiError } from '../../lib/errors'
import { ReportQuery } from '#shared/schemas/ledger-report'
import { ledgerReport } from '../../db/ledger-report'
import { guarded } from '../../lib/guard'
import { type AppEnv, readQuery } from '../context'
import { realmTreeScope } from '../mas/realm'

/** GET ledger/report: credit reports and the analytics overview by period (seed 002 §2, §5). */
export const report = new Hono<AppEnv>().get(
  '/',
  guarded({ any: ['reports_reports_module', 'analytics_ledger_module'], flags: ['ledger_enabled'] }, async (c, auth) => {
    const q = readQuery(c, ReportQuery)
    // Another realm only of the caller's tree (the analytics queries' rule).
    const realm = q.realm ?? auth.realm
    if (realm !== auth.realm && !(await realmInScope(c.env.DB, realm, realmTreeScope(auth))))
      throw apiError(403, 'forbidden', `Realm ${realm} is outside your realms.`, 'realm', realm)
    const timeZone = (await realmTimeZone(c.env.DB, realm)) || 'America/Sao_Paulo'
    return c.json(await ledgerReport(c.env.DB, realm, timeZone, q, realmTreeScope(auth)))
  }),
)
