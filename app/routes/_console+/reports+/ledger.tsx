import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { REPORTS } from '#shared/schemas/ledger-report'
import { loadReport } from '../ledger+/__ledger-report.server'
import { PeriodForm, ReportView } from '../ledger+/__ledger-report'

export const handle = { title: 'pages.reports.ledger' }

/** Credit reports (seed 002 §2): balance by realm and by user, usage, consumed, purchased, transferred, received, sponsored. */
export const loader = ({ request, context }: LoaderFunctionArgs) => loadReport(request, context, 'reports.ledger', 'balance_by_realm')

export default function LedgerReportsRoute() {
  const state = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const { period, start_at, end_at, report } = state.query
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.reports.ledger')}</h1>
      </div>
      <nav aria-label={t('ledger.report.reports')}>
        <ul className="ledger-tabs">
          {REPORTS.filter((r) => r !== 'overview').map((r) => (
            <li key={r}>
              <Link
                to={`?${new URLSearchParams({ report: r, period, start_at, end_at })}`}
                aria-current={r === report ? 'page' : undefined}
                className="ledger-tab"
              >
                {t(`ledger.report.name.${r}`)}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <PeriodForm key={report} state={state} />
      <ReportView state={state} title={t(`ledger.report.name.${report}`)} series={report === 'balance_by_realm' ? ['realm_wallet', 'users'] : undefined} />
    </>
  )
}

export const ErrorBoundary = RouteError
