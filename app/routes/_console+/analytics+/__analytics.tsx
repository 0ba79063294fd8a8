import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { AnalyticsQuery, SessionReportQuery, SESSION_REPORTS } from '#shared/schemas/analytics'
import { SelectInput, TextInput } from '~/components/form/kit'
import type { FieldSpec } from '~/lib/form-fields'
import { PeriodForm, ReportSection } from '../ledger+/__ledger-report'
import type { AnalyticsState } from './__analytics.server'
import { hasRealmPicker, RealmPicker, RealmScope, realmFields } from './__realm-picker'

/** The analytics tabs (seed 002 §2): general, activity, session, credits (the ledger analytics). */
const TABS = [
  { to: '/analytics/general', label: 'analytics.tab.general' },
  { to: '/analytics/task', label: 'analytics.tab.activity' },
  { to: '/analytics/session', label: 'analytics.tab.session' },
  { to: '/analytics/ledger', label: 'analytics.tab.credits' },
]

const filterFields: FieldSpec[] = [
  { name: 'room', label: 'analytics.filter.room', kind: 'select' },
  { name: 'category', label: 'analytics.filter.category', kind: 'select' },
]

/** The query string of a state (for tab links and the CSV export), without empty values. */
function queryOf(state: AnalyticsState, extra: Record<string, string> = {}): string {
  const entries = Object.entries({ ...state.query, ...extra }).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '')
  return new URLSearchParams(entries).toString()
}

/** An analytics page or the session reports: tabs, the period and filters form, then each table with its chart and CSV. */
export function AnalyticsView({ state, title, current }: { state: AnalyticsState; title: string; current: string }) {
  const { t } = useTranslation()
  const reports = state.path === 'session-report'
  const options = state.answer?.options
  const picker = hasRealmPicker(state.realms)
  // Tabs keep the period and the filters (the realm above all); the session report's own fields stay behind; the
  // credits tab (a ledger report) takes the period and the realm.
  const tabQuery = queryOf(state, { report: '', nick: '' })
  const creditsQuery = new URLSearchParams(
    Object.entries({ period: state.query.period, start_at: state.query.start_at, end_at: state.query.end_at, realm: state.query.realm ?? '' }).filter(
      ([, v]) => v,
    ),
  ).toString()
  const answer = state.answer
  const columnLabel = (c: string) => t(`analytics.column.${c}`)
  const cellText = (c: string, v: string | number) =>
    c === 'label' && answer && ['published', 'opened', 'delivered', 'corrected'].includes(String(v)) ? t(`analytics.column.${v}`) : undefined
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      {state.failure === 'forbidden_realm' ? null : (
        <RealmScope realms={state.realms} realm={state.query.realm} withChildren={state.query.children === 'true'} />
      )}
      <nav aria-label={t(reports ? 'analytics.reports' : 'analytics.tabs')}>
        <ul className="ledger-tabs">
          {reports
            ? SESSION_REPORTS.map((r) => (
                <li key={r}>
                  <Link to={`?${queryOf(state, { report: r })}`} aria-current={r === current ? 'page' : undefined} className="ledger-tab">
                    {t(`analytics.report.${r}`)}
                  </Link>
                </li>
              ))
            : TABS.map((tab) => (
                <li key={tab.to}>
                  <Link
                    to={`${tab.to}?${tab.to.endsWith('/ledger') ? creditsQuery : tabQuery}`}
                    aria-current={tab.to.endsWith(current) ? 'page' : undefined}
                    className="ledger-tab"
                  >
                    {t(tab.label)}
                  </Link>
                </li>
              ))}
        </ul>
      </nav>
      <PeriodForm
        key={current}
        state={picker ? { ...state, query: { ...state.query, realm: state.query.realm ?? state.realms.current } } : state}
        schema={reports ? SessionReportQuery : AnalyticsQuery}
        fields={[
          ...(picker ? realmFields(true) : []),
          ...filterFields,
          ...(reports ? [{ name: 'nick', label: 'analytics.filter.nick', kind: 'text' } as const] : []),
        ]}
        hidden={reports ? { report: current } : {}}
      >
        {picker ? <RealmPicker realms={state.realms} withChildren /> : null}
        <SelectInput
          name="room"
          label={t('analytics.filter.room')}
          placeholder={t('analytics.filter.all_rooms')}
          options={(options?.rooms ?? []).map((r) => ({ value: r.id, label: r.name }))}
        />
        <SelectInput
          name="category"
          label={t('analytics.filter.category')}
          placeholder={t('analytics.filter.all_categories')}
          options={(options?.categories ?? []).map((r) => ({ value: r.id, label: r.name }))}
        />
        {reports ? <TextInput name="nick" label={t('analytics.filter.nick')} required={current === 'student'} /> : null}
      </PeriodForm>
      {state.failure ? (
        <p className="card" role={state.failure === 'need_nick' ? 'status' : 'alert'}>
          {t(`analytics.failure.${['narrow_range', 'not_found', 'need_nick', 'forbidden_realm'].includes(state.failure) ? state.failure : 'unavailable'}`)}
        </p>
      ) : !answer ? (
        <p className="card" role="status">
          {t('ledger.report.fix_period')}
        </p>
      ) : (
        <>
          {answer.unavailable_days > 0 ? (
            <p className="card" role="status">
              {t('analytics.unavailable', { count: answer.unavailable_days })}
            </p>
          ) : null}
          {answer.sections.map((s) => (
            <ReportSection
              key={s.name}
              title={t(`analytics.section.${s.name}`)}
              labelHeader={t(s.kind === 'series' ? `ledger.report.label.${answer.period}` : `analytics.label.${s.name}`)}
              columns={s.columns}
              columnLabel={columnLabel}
              rows={s.rows}
              chart={s.chart}
              ranking={s.kind === 'ranking'}
              csv={`/export/analytics/${state.path}/${s.name}?${queryOf(state)}`}
              cellText={cellText}
            />
          ))}
        </>
      )}
    </>
  )
}
