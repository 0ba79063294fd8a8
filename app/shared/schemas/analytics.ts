import * as v from 'valibot'
import { RealmCode } from './common'
import { withPeriod, type Granularity, type ReportRow } from './ledger-report'
import { Id } from './tms/common'
import { Nick } from './user'
import { MARK_CATEGORIES } from './tms/correction'

/** Analytics tabs with their own API (seed 002 §2); the credits tab is the ledger analytics (analytics/ledger). */
export const ANALYTICS_TABS = ['general', 'activity', 'session'] as const
export type AnalyticsTab = (typeof ANALYTICS_TABS)[number]

/** Session reports (seed 002 §2): each a table with CSV and a chart. */
export const SESSION_REPORTS = ['watched_videos', 'video_ranking', 'room_ranking', 'user_ranking', 'student'] as const
export type SessionReport = (typeof SESSION_REPORTS)[number]

/** An optional filter: an empty value (a form's "all" choice) is no filter. */
const optional = <S extends v.GenericSchema<string, string>>(schema: S) =>
  v.optional(
    v.pipe(
      v.string('validation.required'),
      v.transform((s) => (s === '' ? undefined : s)),
      v.optional(schema),
    ),
  )

/** The filters of every analytics query and session report: realm (and its children), room, room category. */
const FILTERS = {
  realm: optional(RealmCode),
  children: optional(v.picklist(['true', 'false'], 'validation.picklist')),
  room: optional(Id),
  category: optional(Id),
}

/** GET analytics/{tab}: the period (§5 bounds) and the filters. */
export const AnalyticsQuery = withPeriod(FILTERS)
export type AnalyticsQuery = v.InferOutput<typeof AnalyticsQuery>

/** GET analytics/session-report: which report; `student` needs the student's nick. */
export const SessionReportQuery = v.pipe(
  withPeriod({ ...FILTERS, report: v.picklist(SESSION_REPORTS, 'validation.picklist'), nick: optional(Nick) }),
  v.forward(
    v.check((q) => q.report !== 'student' || !!q.nick, 'validation.required'),
    ['nick'],
  ),
)
export type SessionReportQuery = v.InferOutput<typeof SessionReportQuery>

/** The essay error categories the activity tab counts (teachers' marks; a `note` is not an error). */
export const ERROR_CATEGORIES = MARK_CATEGORIES.filter((c) => c !== 'note')

/**
 * One table of an analytics answer: `series` rows are periods (charted over time), `ranking` rows are things (rooms,
 * videos, users, categories); `chart` names the columns the chart draws. Table, chart and CSV read the same rows.
 */
export interface AnalyticsSection {
  name: string
  kind: 'series' | 'ranking'
  columns: string[]
  chart: string[]
  rows: ReportRow[]
}

export interface AnalyticsAnswer {
  tab: AnalyticsTab | SessionReport
  period: Granularity
  start_at: string
  end_at: string
  time_zone: string
  /** The realms counted (the chosen one, then its children when asked). */
  realms: string[]
  /** Past days of the range whose rollup is not ready yet (their figures are missing: "data unavailable"). */
  unavailable_days: number
  sections: AnalyticsSection[]
  /** The filters' choices: rooms and room categories of the realms counted (first 200 by name). */
  options?: { rooms: { id: string; name: string }[]; categories: { id: string; name: string }[] }
}

/** Reads above this many base rows ask to narrow the date range (seed 002 §8 "high volume"). */
export const HIGH_VOLUME_ROWS = 200_000
