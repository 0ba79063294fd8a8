import type { AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { AnalyticsRealms } from '#shared/schemas/analytics-realms'
import { fieldErrors } from '#shared/schemas/auth'
import { defaultRange, GRANULARITIES, REPORTS, ReportQuery, type Granularity, type ReportAnswer, type ReportName } from '#shared/schemas/ledger-report'
import { readDate } from '~/lib/dates'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { orErrorResponse, apiData, RealmApiError } from '~/server/api.server'
import { getLocale } from '~/server/i18n.server'
import { requireRoute } from '~/server/auth.server'

/** Today in the realm's calendar (YYYY-MM-DD). */
export function realmToday(timeZone = 'America/Sao_Paulo'): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
}

/** What the period form shows: the query (period, days, any filters), its errors and the realm's time zone. */
export interface PeriodState {
  query: { period: Granularity; start_at: string; end_at: string; report?: string } & Record<string, string | undefined>
  errors: Record<string, string>
  timeZone: string
}

/** The period of a page's URL: granularity (day by default) and days typed in the page language (the longest range ending today by default). */
export function readPeriod(url: URL, locale: string, today: string): { period: Granularity; start_at: string; end_at: string } {
  // The period form's days are typed in the page language's format (or ISO, from links and the CSV export).
  const day = (name: string) => {
    const raw = url.searchParams.get(name)?.trim()
    return raw ? (readDate(raw, locale) ?? raw) : undefined
  }
  const wanted = url.searchParams.get('period')
  const period: Granularity = (GRANULARITIES as readonly string[]).includes(wanted ?? '') ? (wanted as Granularity) : 'day'
  const range = defaultRange(period, today)
  return { period, start_at: day('start_at') ?? range.start_at, end_at: day('end_at') ?? range.end_at }
}

export interface ReportState {
  query: { report: ReportName; period: Granularity; start_at: string; end_at: string; realm?: string }
  answer: ReportAnswer | null
  /** Field → message key when the period in the URL breaks the rules (nothing is fetched then). */
  errors: Record<string, string>
  today: string
  /** The realm's time zone (the form kit's). */
  timeZone: string
  /** The credits tab's realm picker (analytics/ledger only): the caller's realm tree and current realm. */
  realms?: AnalyticsRealms
  /** `forbidden_realm` when the URL names a realm outside the caller's tree (nothing is shown then). */
  failure?: string
}

/** The report a page's URL asks for (defaults: the longest day range ending today), behind the page's guard. */
export async function loadReport(request: Request, context: AppLoadContext, routeId: string, fallback: ReportName): Promise<ReportState> {
  const { api, realm } = await requireRoute(request, context, routeId)
  const url = new URL(request.url)
  const timeZone = realm.config?.time_zone ?? DEFAULT_TIME_ZONE
  const today = realmToday(timeZone)
  const locale = await getLocale(request)
  const askedReport = url.searchParams.get('report')
  const report: ReportName =
    routeId === 'analytics.ledger' ? 'overview' : (REPORTS as readonly string[]).includes(askedReport ?? '') ? (askedReport as ReportName) : fallback
  // The credits tab of analytics may be of another realm of the caller's tree (its realm picker).
  const analytics = routeId === 'analytics.ledger'
  const realms = analytics ? await apiData(api.analytics.realms.$get()) : undefined
  const asked = analytics ? url.searchParams.get('realm')?.trim() : undefined
  const query = { report, ...readPeriod(url, locale, today), ...(asked ? { realm: asked } : {}) }
  const parsed = v.safeParse(ReportQuery, query)
  const state = { query, answer: null, errors: {}, today, timeZone, ...(realms ? { realms } : {}) }
  if (!parsed.success) return { ...state, errors: fieldErrors(parsed.issues) }
  try {
    return { ...state, answer: await apiData(api.ledger.report.$get({ query: parsed.output })) }
  } catch (err) {
    if (err instanceof RealmApiError && err.status === 403 && err.errors.some((e) => e.field === 'realm')) return { ...state, failure: 'forbidden_realm' }
    return orErrorResponse(Promise.reject(err))
  }
}
