import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { toCsv, type TableColumn } from '~/lib/table'
import type { ReportRow } from '#shared/schemas/ledger-report'
import { getT } from '~/server/i18n.server'
import { loadAnalytics, type AnalyticsPath } from '../_console+/analytics+/__analytics.server'

const ROUTES: Record<string, string> = {
  general: 'analytics.general',
  task: 'analytics.task',
  session: 'analytics.session',
  'session-report': 'reports.session',
}

/** CSV of one table of an analytics page or session report: the page's guard, query and columns, exact figures. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const path = params.path ?? ''
  if (!ROUTES[path]) throw new Response('Not found', { status: 404 })
  const [state, t] = await Promise.all([loadAnalytics(request, context, ROUTES[path], path as AnalyticsPath), getT(request)])
  const section = state.answer?.sections.find((s) => s.name === params.section)
  if (!state.answer || !section)
    throw Response.json({ errors: [{ field: 'section', cause: state.failure ?? 'invalid', value: params.section ?? null, message: '' }] }, { status: 400 })
  const columns: TableColumn<ReportRow>[] = [
    { id: 'label', label: section.kind === 'series' ? `ledger.report.label.${state.answer.period}` : `analytics.label.${section.name}` },
    ...section.columns.map((c) => ({ id: c, label: `analytics.column.${c}` })),
  ]
  return new Response(toCsv(columns, section.rows, t), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="analytics-${section.name}-${state.answer.start_at}-${state.answer.end_at}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}
