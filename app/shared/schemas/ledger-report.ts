import * as v from 'valibot'
import { RealmCode, isCalendarDay } from './common'

/** Credit reports (seed 002 §2) and the analytics overview; `overview` gives every series per period. */
export const REPORTS = ['balance_by_realm', 'balance_by_user', 'usage', 'consumed', 'purchased', 'transferred', 'received', 'sponsored', 'overview'] as const
export type ReportName = (typeof REPORTS)[number]

export const GRANULARITIES = ['day', 'month', 'year'] as const
export type Granularity = (typeof GRANULARITIES)[number]

/** Seed 002 §5 metrics: day up to 31 days, month up to 3 months, year up to 2 years (counted in periods). */
export const PERIOD_LIMIT: Record<Granularity, number> = { day: 31, month: 3, year: 2 }

/** The columns of each report after `label`, in order: the table, the chart and the CSV all read them. */
export const REPORT_COLUMNS: Record<ReportName, string[]> = {
  balance_by_realm: ['name', 'realm_wallet', 'users', 'points'],
  balance_by_user: ['name', 'points'],
  usage: ['count', 'points'],
  consumed: ['count', 'points'],
  purchased: ['count', 'points', 'amount_brl', 'amount_usd', 'amount_eur'],
  transferred: ['count', 'points'],
  received: ['count', 'points'],
  sponsored: ['count', 'points'],
  overview: ['purchased', 'consumed', 'transferred', 'received', 'sponsored'],
}

/** Reports whose rows are periods (charted over time); the others are rankings as of the end date or in the range. */
export const SERIES_REPORTS: ReportName[] = ['consumed', 'purchased', 'transferred', 'received', 'sponsored', 'overview']

export type ReportRow = { label: string } & Record<string, string | number>

/** i18n key of the first column: the period for series, what the rows are for rankings. */
export function labelKey(report: ReportName, period: Granularity): string {
  return `ledger.report.label.${SERIES_REPORTS.includes(report) ? period : report}`
}

export interface ReportAnswer {
  report: ReportName
  period: Granularity
  start_at: string
  end_at: string
  time_zone: string
  columns: string[]
  rows: ReportRow[]
}

/** The periods from start to end (inclusive): `YYYY-MM-DD`, `YYYY-MM` or `YYYY`. */
export function periodsOf(period: Granularity, start: string, end: string): string[] {
  const out: string[] = []
  const d = new Date(`${start}T00:00:00Z`)
  const last = new Date(`${end}T00:00:00Z`)
  const cut = period === 'day' ? 10 : period === 'month' ? 7 : 4
  // Bounded: the caller validated the range, and this never loops past a few hundred periods.
  for (let i = 0; d <= last && i < 800; i++) {
    const label = d.toISOString().slice(0, cut)
    if (out[out.length - 1] !== label) out.push(label)
    if (period === 'day') d.setUTCDate(d.getUTCDate() + 1)
    else if (period === 'month') d.setUTCMonth(d.getUTCMonth() + 1, 1)
    else d.setUTCFullYear(d.getUTCFullYear() + 1, 0, 1)
  }
  return out
}

/** The period fields every report and analytics query shares: granularity and two days of the realm's calendar. */
export const PERIOD_ENTRIES = {
  period: v.optional(v.picklist(GRANULARITIES, 'validation.picklist'), 'day'),
  start_at: v.pipe(v.string('ledger.validation.invalid_date'), v.check(isCalendarDay, 'ledger.validation.invalid_date')),
  end_at: v.pipe(v.string('ledger.validation.invalid_date'), v.check(isCalendarDay, 'ledger.validation.invalid_date')),
}

/** A query object with the period fields, checked by §5's rules: start before end, at most PERIOD_LIMIT periods. */
export function withPeriod<E extends v.ObjectEntries>(entries: E) {
  type Q = { period: Granularity; start_at: string; end_at: string }
  return v.pipe(
    v.object({ ...entries, ...PERIOD_ENTRIES }),
    v.forward(
      v.check((q) => (q as Q).start_at <= (q as Q).end_at, 'ledger.validation.period_order'),
      ['end_at'] as never,
    ),
    v.forward(
      v.check(
        (q) => periodsOf((q as Q).period, (q as Q).start_at, (q as Q).end_at).length <= PERIOD_LIMIT[(q as Q).period],
        'ledger.validation.period_too_long',
      ),
      ['end_at'] as never,
    ),
  )
}

/** GET ledger/report: which report, by what period, over which days (the realm's calendar). */
export const ReportQuery = withPeriod({
  report: v.picklist(REPORTS, 'validation.picklist'),
  /** The realm reported (analytics' credits tab): one of the caller's realm tree; absent or empty = the current realm. */
  realm: v.optional(
    v.pipe(
      v.string('validation.realm_code'),
      v.transform((s) => (s === '' ? undefined : s)),
      v.optional(RealmCode),
    ),
  ),
})
export type ReportQuery = v.InferOutput<typeof ReportQuery>

/** The default range of a granularity ending today: the longest it allows. */
export function defaultRange(period: Granularity, today: string): { start_at: string; end_at: string } {
  const d = new Date(`${today}T00:00:00Z`)
  if (period === 'day') d.setUTCDate(d.getUTCDate() - (PERIOD_LIMIT.day - 1))
  else if (period === 'month') d.setUTCMonth(d.getUTCMonth() - (PERIOD_LIMIT.month - 1), 1)
  else d.setUTCFullYear(d.getUTCFullYear() - (PERIOD_LIMIT.year - 1), 0, 1)
  return { start_at: d.toISOString().slice(0, 10), end_at: today }
}
