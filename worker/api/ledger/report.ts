import { Hono } from 'hono'
import { realmTimeZone } from '../../db/realms'
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
    const timeZone = (await realmTimeZone(c.env.DB, auth.realm)) || 'America/Sao_Paulo'
    return c.json(await ledgerReport(c.env.DB, auth.realm, timeZone, q, realmTreeScope(auth)))
  }),
)
