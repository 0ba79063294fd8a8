import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { toCsv, type TableColumn } from '~/lib/table'
import { labelKey, ReportQuery, type ReportRow } from '#shared/schemas/ledger-report'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireAccess } from '~/server/auth.server'
import { getT } from '~/server/i18n.server'

/** CSV of a credit report (reports/ledger and analytics/ledger), same columns as the screen, exact figures. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireAccess(request, context, { any: ['reports_reports_module', 'analytics_ledger_module'], flags: ['ledger_enabled'] })
  const url = new URL(request.url)
  const parsed = v.safeParse(ReportQuery, {
    report: params.report,
    period: url.searchParams.get('period') ?? undefined,
    start_at: url.searchParams.get('start_at') ?? '',
    end_at: url.searchParams.get('end_at') ?? '',
    realm: url.searchParams.get('realm') ?? undefined,
  })
  if (!parsed.success)
    throw Response.json({ errors: parsed.issues.map((i) => ({ field: '', cause: 'invalid', value: null, message: i.message })) }, { status: 400 })
  const [answer, t] = await Promise.all([orErrorResponse(apiData(api.ledger.report.$get({ query: parsed.output }))), getT(request)])
  const columns: TableColumn<ReportRow>[] = [
    { id: 'label', label: labelKey(answer.report, answer.period) },
    ...answer.columns.map((c) => ({ id: c, label: `ledger.report.column.${c}` })),
  ]
  return new Response(toCsv(columns, answer.rows, t), {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="ledger-${answer.report}-${answer.start_at}-${answer.end_at}.csv"`,
      'Cache-Control': 'no-store',
    },
  })
}
