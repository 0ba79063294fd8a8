import { periodsOf, REPORT_COLUMNS, type ReportAnswer, type ReportQuery, type ReportRow } from '#shared/schemas/ledger-report'
import type { Scope } from '../lib/entity'

/** Minutes to add to UTC for the time zone at that instant (São Paulo: -180). */
export function tzOffsetMinutes(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return Math.round((Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - at.getTime()) / 60000)
}

const FORMAT = { day: '%Y-%m-%d', month: '%Y-%m', year: '%Y' } as const

/** A movement series: entries on the realm's accounts of these kinds, from transactions of these types, that were not reversed. */
const SERIES: Record<string, { kinds: string[]; types: string[]; credited: boolean }> = {
  consumed: { kinds: ['consumption'], types: ['debit'], credited: true },
  purchased: { kinds: ['user', 'realm'], types: ['purchase'], credited: true },
  transferred: { kinds: ['user', 'realm'], types: ['transfer'], credited: false },
  received: { kinds: ['user', 'realm'], types: ['transfer', 'sponsor'], credited: true },
  sponsored: { kinds: ['user', 'realm'], types: ['sponsor'], credited: false },
}

export interface Window {
  realm: string
  from: string
  to: string
  offset: string
  format: string
}

const NOT_REVERSED = 'NOT EXISTS (SELECT 1 FROM ledger_transaction r WHERE r.reverses = t.id)'

export function seriesStatement(db: D1Database, name: string, w: Window): D1PreparedStatement {
  const s = SERIES[name]
  const money =
    name === 'purchased'
      ? `, ${['BRL', 'USD', 'EUR'].map((c) => `ROUND(SUM(CASE WHEN t.details ->> '$.currency' = '${c}' THEN t.details ->> '$.amount' ELSE 0 END), 2) AS amount_${c.toLowerCase()}`).join(', ')}`
      : ''
  return db
    .prepare(
      `SELECT strftime(?, e.created_at, ?) AS label, SUM(ABS(e.amount)) AS points, COUNT(DISTINCT t.id) AS count${money}
       FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id JOIN ledger_transaction t ON t.id = e.transaction_id
       WHERE a.realm = ? AND a.kind IN (SELECT value FROM json_each(?)) AND t.type IN (SELECT value FROM json_each(?))
         AND (e.amount > 0) = ? AND e.created_at >= ? AND e.created_at <= ? AND ${NOT_REVERSED}
       GROUP BY label`,
    )
    .bind(w.format, w.offset, w.realm, JSON.stringify(s.kinds), JSON.stringify(s.types), s.credited ? 1 : 0, w.from, w.to)
}

/** Every period of the range, with zeros where nothing moved. */
function fill(periods: string[], found: Record<string, unknown>[], columns: string[]): ReportRow[] {
  const by = new Map(found.map((r) => [String(r.label), r]))
  return periods.map((label) => ({ label, ...Object.fromEntries(columns.map((c) => [c, Number(by.get(label)?.[c] ?? 0)])) }))
}

/**
 * One credit report of a realm over the query's days in the realm's calendar. `tree` scopes balance_by_realm to
 * the realms the caller administers. Balances are as of the end of the last day; movements exclude reversed ones.
 */
export async function ledgerReport(db: D1Database, realm: string, timeZone: string, q: ReportQuery, tree: Scope): Promise<ReportAnswer> {
  const offsetMin = tzOffsetMinutes(timeZone, new Date(`${q.start_at}T12:00:00Z`))
  const shift = (iso: string) => new Date(new Date(iso).getTime() - offsetMin * 60000).toISOString()
  const w: Window = {
    realm,
    from: shift(`${q.start_at}T00:00:00.000Z`),
    to: shift(`${q.end_at}T23:59:59.999Z`),
    offset: `${offsetMin} minutes`,
    format: FORMAT[q.period],
  }
  const columns = REPORT_COLUMNS[q.report]
  const periods = periodsOf(q.period, q.start_at, q.end_at)
  const answer = (rows: ReportRow[]): ReportAnswer => ({
    report: q.report,
    period: q.period,
    start_at: q.start_at,
    end_at: q.end_at,
    time_zone: timeZone,
    columns,
    rows,
  })

  if (q.report in SERIES) return answer(fill(periods, (await seriesStatement(db, q.report, w).all()).results, columns))
  if (q.report === 'overview') {
    const names = Object.keys(SERIES)
    const results = await db.batch(names.map((n) => seriesStatement(db, n, w)))
    return answer(
      periods.map((label) => ({
        label,
        ...Object.fromEntries(
          names.map((n, i) => [n, Number((results[i].results as { label: string; points: number }[]).find((r) => r.label === label)?.points ?? 0)]),
        ),
      })),
    )
  }
  if (q.report === 'usage') {
    const { results } = await db
      .prepare(
        `SELECT j.value ->> 'key' AS label, COUNT(*) AS count, SUM(j.value ->> 'points') AS points
         FROM ledger_transaction t, json_each(t.details, '$.contents') j
         WHERE t.realm = ? AND t.type = 'debit' AND t.created_at >= ? AND t.created_at <= ? AND ${NOT_REVERSED}
         GROUP BY label ORDER BY points DESC, label LIMIT 1000`,
      )
      .bind(realm, w.from, w.to)
      .all<ReportRow>()
    return answer(results)
  }
  const balanceAt = (kind: string, account: string) =>
    `(SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entry e JOIN ledger_account a ON a.id = e.account_id WHERE ${account} AND a.kind = '${kind}' AND e.created_at <= ?)`
  if (q.report === 'balance_by_user') {
    const { results } = await db
      .prepare(
        `SELECT a.owner AS label, COALESCE(u.name, '') AS name, (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entry e WHERE e.account_id = a.id AND e.created_at <= ?) AS points
         FROM ledger_account a LEFT JOIN user u ON u.realm = a.realm AND u.nick = a.owner
         WHERE a.realm = ? AND a.kind = 'user' ORDER BY points DESC, label LIMIT 1000`,
      )
      .bind(w.to, realm)
      .all<ReportRow>()
    return answer(results)
  }
  const { results } = await db
    .prepare(
      `SELECT code AS label, name, ${balanceAt('realm', 'a.realm = realm.code')} AS realm_wallet, ${balanceAt('user', 'a.realm = realm.code')} AS users
       FROM realm WHERE ledger_enabled = 1 AND deleted_at IS NULL AND (${tree.where}) ORDER BY code LIMIT 1000`,
    )
    .bind(w.to, w.to, ...tree.params)
    .all<{ label: string; name: string; realm_wallet: number; users: number }>()
  return answer(results.map((r) => ({ ...r, points: r.realm_wallet + r.users })))
}
