import { Hono } from 'hono'
import { ReportQuery } from '#shared/schemas/ledger-report'
import { ledgerReport } from '../../db/ledger-report'
import { guarded } from '../../lib/guard'
import { type AppEnv, readQuery } from '../context'
import { realmTreeScope } from '../realm'
import { accounts, wallet } from './accounts'
import { contents, packages } from './catalog'
import { movements } from './movements'
import { purchase, webhook } from './purchase'
import { sandbox } from './sandbox'

/** The credit ledger API (seed 000 §7 "Credit ledger"), mounted at /api/ledger. */
export const ledger = new Hono<AppEnv>()

ledger.route('/content', contents)
ledger.route('/package', packages)
ledger.route('/transaction', movements)
ledger.route('/transaction', purchase)
ledger.route('/transaction', accounts)
ledger.route('/wallet', wallet)
ledger.route('/webhook', webhook)
ledger.route('/sandbox', sandbox)

/** GET ledger/report: credit reports and the analytics overview by period (seed 002 §2, §5). */
ledger.get(
  '/report',
  guarded({ any: ['reports_reports_module', 'analytics_ledger_module'], flags: ['ledger_enabled'] }, async (c, auth) => {
    const q = readQuery(c, ReportQuery)
    const row = await c.env.DB.prepare('SELECT time_zone FROM realm WHERE code = ?').bind(auth.realm).first<{ time_zone: string }>()
    return c.json(await ledgerReport(c.env.DB, auth.realm, row?.time_zone || 'America/Sao_Paulo', q, realmTreeScope(auth)))
  }),
)
