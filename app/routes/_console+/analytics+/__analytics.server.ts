import type { AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { AnalyticsQuery, SESSION_REPORTS, SessionReportQuery, type AnalyticsAnswer, type SessionReport } from '#shared/schemas/analytics'
import type { AnalyticsRealms } from '#shared/schemas/analytics-realms'
import { fieldErrors } from '#shared/schemas/auth'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { apiData, orErrorResponse, RealmApiError } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { getLocale } from '~/server/i18n.server'
import { readPeriod, realmToday, type PeriodState } from '../ledger+/__ledger-report.server'

export type AnalyticsPath = 'general' | 'task' | 'session' | 'session-report'

export interface AnalyticsState extends PeriodState {
  path: AnalyticsPath
  answer: AnalyticsAnswer | null
  /** An API refusal shown in the page (narrow the range, unknown room). */
  failure: string | null
  today: string
  /** The realms the picker offers (the caller's realm tree; one realm = no picker) and the current one. */
  realms: AnalyticsRealms
}

const FILTERS = ['room', 'category', 'children', 'realm', 'nick'] as const

/** The analytics (or session report) a page's URL asks for, behind the page's guard; invalid periods fetch nothing. */
export async function loadAnalytics(request: Request, context: AppLoadContext, routeId: string, path: AnalyticsPath): Promise<AnalyticsState> {
  const { api, realm } = await requireRoute(request, context, routeId)
  const realms = await apiData(api.analytics.realms.$get())
  const url = new URL(request.url)
  const timeZone = realm.config?.time_zone ?? DEFAULT_TIME_ZONE
  const today = realmToday(timeZone)
  const filters = Object.fromEntries(FILTERS.flatMap((f) => (url.searchParams.get(f)?.trim() ? [[f, url.searchParams.get(f)!.trim()]] : [])))
  const asked = url.searchParams.get('report') ?? ''
  const report: SessionReport | undefined =
    path === 'session-report' ? ((SESSION_REPORTS as readonly string[]).includes(asked) ? (asked as SessionReport) : 'watched_videos') : undefined
  const query = { ...readPeriod(url, await getLocale(request), today), ...filters, ...(report ? { report } : {}) }
  const parsed = path === 'session-report' ? v.safeParse(SessionReportQuery, query) : v.safeParse(AnalyticsQuery, query)
  const state = { path, query, errors: {}, timeZone, today, answer: null, failure: null, realms }
  // The student report opens asking for a student, without calling the empty field an error.
  if (report === 'student' && !filters.nick) return { ...state, failure: 'need_nick' }
  if (!parsed.success) return { ...state, errors: fieldErrors(parsed.issues) }
  const q = parsed.output as Record<string, string>
  const call =
    path === 'general'
      ? api.analytics.general.$get({ query: q })
      : path === 'task'
        ? api.analytics.task.$get({ query: q })
        : path === 'session'
          ? api.analytics.session.$get({ query: q })
          : api.analytics['session-report'].$get({ query: q })
  try {
    return { ...state, answer: (await orErrorResponse(apiData(call))) as AnalyticsAnswer }
  } catch (err) {
    if (err instanceof Response && err.status === 422) {
      const body = (await err.clone().json()) as { errors: { cause: string }[] }
      return { ...state, failure: body.errors[0]?.cause ?? 'unavailable' }
    }
    if (err instanceof RealmApiError && err.status === 404) return { ...state, failure: 'not_found' }
    // A realm outside the caller's tree (a link from someone else): said in the page, the picker still offers theirs.
    if (err instanceof Response && err.status === 403) {
      const body = (await err.clone().json()) as { errors: { field: string }[] }
      if (body.errors.some((e) => e.field === 'realm')) return { ...state, failure: 'forbidden_realm' }
    }
    if (err instanceof Response && err.status === 404) return { ...state, failure: 'not_found' }
    throw err
  }
}
