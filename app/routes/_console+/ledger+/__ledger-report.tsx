import { useId, type ReactNode } from 'react'
import type * as v from 'valibot'
import { useLocation, useNavigation } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BarChart } from '~/components/ui/bar-chart'
import { DateInput, KitForm, SelectInput } from '~/components/form/kit'
import { Icon } from '~/components/ui/icon'
import type { FieldSpec } from '~/lib/form-fields'
import { abbreviate, money } from '~/lib/format'
import { GRANULARITIES, labelKey, PERIOD_LIMIT, ReportQuery, SERIES_REPORTS, type ReportAnswer, type ReportRow } from '#shared/schemas/ledger-report'
import type { PeriodState, ReportState } from './__ledger-report.server'

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
export function PeriodForm({
  state,
  schema = ReportQuery,
  fields = [],
  hidden = { report: state.query.report ?? '' },
  children,
}: {
  state: PeriodState
  /** The query's schema (the ledger report's by default): the form validates live with it. */
  schema?: v.GenericSchema
  /** More fields (filters) after the period's, with their inputs as children. */
  fields?: FieldSpec[]
  /** Values sent as they are (the report chosen). */
  hidden?: Record<string, string>
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const errors = Object.entries(state.errors)
  const lastResult = errors.length ? { status: 'error' as const, error: Object.fromEntries(errors.map(([k, m]) => [k, [m]])) } : undefined
  return (
    <KitForm
      key={Object.values(state.query).join('|')}
      method="get"
      schema={schema}
      fields={[...periodFields, ...fields]}
      prepare={(values) => ({ ...values, ...hidden })}
      defaultValue={state.query}
      lastResult={lastResult}
      timeZone={state.timeZone}
      className="card ledger-period"
      aria-label={t('ledger.report.period')}
      submitLabel={t('ledger.report.apply')}
      submitIcon="search"
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <SelectInput
        name="period"
        label={t('ledger.report.granularity')}
        hint={t('ledger.report.limits', PERIOD_LIMIT)}
        options={GRANULARITIES.map((g) => ({ value: g, label: t(`ledger.report.granularity.${g}`) }))}
      />
      <DateInput name="start_at" label={t('ledger.report.start_at')} required />
      <DateInput name="end_at" label={t('ledger.report.end_at')} required />
      {children}
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
  const answer: ReportAnswer | null = state.answer
  if (state.failure === 'forbidden_realm') {
    return (
      <p className="card" role="alert">
        {t('analytics.failure.forbidden_realm')}
      </p>
    )
  }
  if (!answer) {
    return (
      <p className="card" role="status">
        {t('ledger.report.fix_period')}
      </p>
    )
  }
  const isSeries = SERIES_REPORTS.includes(answer.report)
  return (
    <ReportSection
      title={title}
      labelHeader={t(labelKey(answer.report, answer.period))}
      columns={answer.columns}
      columnLabel={(c) => t(`ledger.report.column.${c}`)}
      rows={answer.rows}
      chart={series ?? ['points']}
      ranking={!isSeries}
      csv={`/export/ledger/${answer.report}?${new URLSearchParams({ period: answer.period, start_at: answer.start_at, end_at: answer.end_at, ...(state.query.realm ? { realm: state.query.realm } : {}) })}`}
    />
  )
}

/**
 * One table of figures with its chart and CSV link (ledger reports, analytics, session reports): series chart every
 * period, rankings their top 15 rows; an empty table says so. `chart` names the columns drawn.
 */
export function ReportSection({
  title,
  labelHeader,
  columns,
  columnLabel,
  rows: all,
  chart,
  ranking,
  csv,
  cellText,
}: {
  title: string
  labelHeader: string
  columns: string[]
  columnLabel: (column: string) => string
  rows: ReportRow[]
  chart: string[]
  ranking: boolean
  csv: string
  /** A cell's text when it is not a plain number (a translated label, a unit). */
  cellText?: (column: string, value: string | number) => string | undefined
}) {
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const navigation = useNavigation()
  const location = useLocation()
  const loading = navigation.state === 'loading' && navigation.location?.pathname === location.pathname
  const id = useId()
  const rows: ReportRow[] = ranking ? [...all].sort((a, b) => Number(b[chart[0]] ?? 0) - Number(a[chart[0]] ?? 0)).slice(0, 15) : all
  const empty = all.length === 0 || all.every((r) => columns.every((c) => !r[c] || typeof r[c] !== 'number'))
  const values = chart.map((c) => rows.map((r) => Number(r[c] ?? 0)))
  const show = (c: string, v: string | number) => cellText?.(c, v) ?? cell(c, v, locale)
  return (
    <section className="card ledger-report" aria-labelledby={id} aria-busy={loading}>
      <div className="page-header">
        <h2 id={id}>{title}</h2>
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
          labels={rows.map((r) => show('label', r.label))}
          series={chart.map((c) => ({ key: c, label: columnLabel(c) }))}
          values={values}
          format={(n) => abbreviate(Math.round(n), locale)}
        />
      )}
      <div className="table-wrap">
        <table className="data">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{labelHeader}</th>
              {columns.map((c) => (
                <th key={c} scope="col" style={{ textAlign: c === 'name' ? undefined : 'right' }}>
                  {columnLabel(c)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {all.length === 0 ? (
              <tr>
                <td className="empty" colSpan={columns.length + 1}>
                  {t('ledger.report.empty')}
                </td>
              </tr>
            ) : (
              all.map((r, i) => (
                <tr key={`${r.label}|${i}`}>
                  <th scope="row">{show('label', r.label)}</th>
                  {columns.map((c) => (
                    <td key={c} style={{ textAlign: typeof r[c] === 'number' ? 'right' : undefined }}>
                      {show(c, r[c] ?? 0)}
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
