import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { abbreviate } from '~/lib/format'
import { REPORT_COLUMNS } from '#shared/schemas/ledger-report'
import { loadReport } from '../ledger+/__ledger-report.server'
import { PeriodForm, ReportView } from '../ledger+/__ledger-report'
import { hasRealmPicker, RealmPicker, RealmScope, realmFields } from './__realm-picker'

export const handle = { title: 'pages.analytics.ledger' }

/** Credits over time (seed 002 §2 analytics, credits tab): every movement series per period, with totals. */
export const loader = ({ request, context }: LoaderFunctionArgs) => loadReport(request, context, 'analytics.ledger', 'overview')

export default function LedgerAnalyticsRoute() {
  const state = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const series = REPORT_COLUMNS.overview
  const totals = Object.fromEntries(series.map((s) => [s, (state.answer?.rows ?? []).reduce((sum, r) => sum + Number(r[s] ?? 0), 0)]))
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.analytics.ledger')}</h1>
      </div>
      {state.failure === 'forbidden_realm' ? null : <RealmScope realms={state.realms} realm={state.query.realm} withChildren={false} />}
      {hasRealmPicker(state.realms) ? (
        // The credits of one realm: no "include child realms" here (the ledger report counts one realm).
        <PeriodForm state={{ ...state, query: { ...state.query, realm: state.query.realm ?? state.realms.current } }} fields={realmFields(false)}>
          <RealmPicker realms={state.realms} withChildren={false} />
        </PeriodForm>
      ) : (
        <PeriodForm state={state} />
      )}
      {state.answer ? (
        <ul className="ledger-kpis" aria-label={t('ledger.report.totals')}>
          {series.map((s) => (
            <li key={s} className="card">
              <span className="hint">{t(`ledger.report.column.${s}`)}</span>
              <strong title={new Intl.NumberFormat(locale).format(totals[s])}>{abbreviate(totals[s], locale)}</strong>
            </li>
          ))}
        </ul>
      ) : null}
      <ReportView state={state} title={t('ledger.report.name.overview')} series={series} />
    </>
  )
}

export const ErrorBoundary = RouteError
