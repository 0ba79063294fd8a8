import { useLocation, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BarChart } from '~/components/ui/bar-chart'
import { DateInput, KitForm, SelectInput } from '~/components/form/kit'
import { Icon } from '~/components/ui/icon'
import type { FieldSpec } from '~/lib/form-fields'
import { abbreviate, money } from '~/lib/format'
import { GRANULARITIES, labelKey, PERIOD_LIMIT, ReportQuery, SERIES_REPORTS, type ReportAnswer, type ReportRow } from '#shared/schemas/ledger-report'
import type { ReportState } from './__ledger-report.server'

const MONEY: Record<string, string> = { amount_brl: 'BRL', amount_usd: 'USD', amount_eur: 'EUR' }

/** The period form's fields: granularity and two days typed in the page language's format. */
export const periodFields: FieldSpec[] = [
  { name: 'period', label: 'ledger.report.granularity', kind: 'select' },
  { name: 'start_at', label: 'ledger.report.start_at', kind: 'date', required: true },
  { name: 'end_at', label: 'ledger.report.end_at', kind: 'date', required: true },
]

/**
 * The period of a report: granularity and days, a GET form on the kit validated live with the API's rules (31 days,
 * 3 months, 2 years); the loader reads the same fields with the same schema and shows its errors without script.
 */
export function PeriodForm({ state }: { state: ReportState }) {
  const { t } = useTranslation()
  const report = state.query.report
  const errors = Object.entries(state.errors)
  const lastResult = errors.length ? { status: 'error' as const, error: Object.fromEntries(errors.map(([k, m]) => [k, [m]])) } : undefined
  return (
    <KitForm
      key={`${state.query.period}|${state.query.start_at}|${state.query.end_at}`}
      method="get"
      schema={ReportQuery}
      fields={periodFields}
      prepare={(values) => ({ ...values, report })}
      defaultValue={state.query}
      lastResult={lastResult}
      timeZone={state.timeZone}
      className="card ledger-period"
      aria-label={t('ledger.report.period')}
      submitLabel={t('ledger.report.apply')}
      submitIcon="search"
    >
      <input type="hidden" name="report" value={report} />
      <SelectInput
        name="period"
        label={t('ledger.report.granularity')}
        hint={t('ledger.report.limits', PERIOD_LIMIT)}
        options={GRANULARITIES.map((g) => ({ value: g, label: t(`ledger.report.granularity.${g}`) }))}
      />
      <DateInput name="start_at" label={t('ledger.report.start_at')} required />
      <DateInput name="end_at" label={t('ledger.report.end_at')} required />
    </KitForm>
  )
}

function cell(column: string, value: string | number, locale: string): string {
  if (typeof value !== 'number') return value
  return MONEY[column] ? money(value, MONEY[column], locale) : new Intl.NumberFormat(locale).format(value)
}

/** A report: chart, table (the accessible form of the same figures) and CSV export; loading, empty and invalid states. */
export function ReportView({ state, title, series }: { state: ReportState; title: string; series?: string[] }) {
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const navigation = useNavigation()
  const location = useLocation()
  const loading = navigation.state === 'loading' && navigation.location?.pathname === location.pathname
  const answer: ReportAnswer | null = state.answer
  if (!answer) {
    return (
      <p className="card" role="status">
        {t('ledger.report.fix_period')}
      </p>
    )
  }
  const isSeries = SERIES_REPORTS.includes(answer.report)
  const charted = series ?? ['points']
  // Rankings chart their top rows; series chart every period.
  const rows: ReportRow[] = isSeries ? answer.rows : [...answer.rows].sort((a, b) => Number(b.points) - Number(a.points)).slice(0, 15)
  const empty = answer.rows.length === 0 || answer.rows.every((r) => answer.columns.every((c) => !r[c] || typeof r[c] !== 'number'))
  const csv = `/export/ledger/${answer.report}?${new URLSearchParams({ period: answer.period, start_at: answer.start_at, end_at: answer.end_at })}`
  const values = charted.map((c) => rows.map((r) => Number(r[c] ?? 0)))
  return (
    <section className="card ledger-report" aria-labelledby="report-title" aria-busy={loading}>
      <div className="page-header">
        <h2 id="report-title">{title}</h2>
        <a className="btn" href={csv} download>
          <Icon name="download" /> {t('table.export_csv')}
        </a>
      </div>
      {loading ? (
        <p role="status" className="table-loading">
          <span className="spinner" aria-hidden="true" /> {t('table.loading')}
        </p>
      ) : null}
      {empty ? (
        <p role="status">{t('ledger.report.empty')}</p>
      ) : (
        <BarChart
          title={title}
          summary={t('ledger.report.chart_summary', { count: rows.length, max: abbreviate(Math.max(0, ...values.flat()), locale) })}
          labels={rows.map((r) => r.label)}
          series={charted.map((c) => ({ key: c, label: t(`ledger.report.column.${c}`) }))}
          values={values}
          format={(n) => abbreviate(Math.round(n), locale)}
        />
      )}
      <div className="table-wrap">
        <table className="data">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{t(labelKey(answer.report, answer.period))}</th>
              {answer.columns.map((c) => (
                <th key={c} scope="col" style={{ textAlign: c === 'name' ? undefined : 'right' }}>
                  {t(`ledger.report.column.${c}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {answer.rows.length === 0 ? (
              <tr>
                <td className="empty" colSpan={answer.columns.length + 1}>
                  {t('ledger.report.empty')}
                </td>
              </tr>
            ) : (
              answer.rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row">{r.label}</th>
                  {answer.columns.map((c) => (
                    <td key={c} style={{ textAlign: c === 'name' ? undefined : 'right' }}>
                      {cell(c, r[c] ?? 0, locale)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  )
}
