import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { AnalyticsQuery, SessionReportQuery, SESSION_REPORTS } from '#shared/schemas/analytics'
import { KitField, SelectInput, TextInput } from '~/components/form/kit'
import type { FieldSpec } from '~/lib/form-fields'
import { PeriodForm, ReportSection } from '../ledger+/__ledger-report'
import type { AnalyticsState } from './__analytics.server'

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

/** The realm picker's fields, for those whose realm tree holds more than their realm. */
const realmFields: FieldSpec[] = [
  { name: 'realm', label: 'analytics.filter.realm', kind: 'select' },
  // A checkbox sending `children=true` (read as text: unchecked sends nothing, which is no filter).
  { name: 'children', label: 'analytics.filter.children', kind: 'text' },
]

/** Non-breaking spaces before a realm's name in the picker, one pair per level below the list's roots. */
const indent = (depth: number) => '\u00a0\u00a0'.repeat(depth)

/** "Include child realms": a checkbox of the kit's frame whose value is the API's `true`. */
function ChildrenCheckbox({ label }: { label: string }) {
  return (
    <KitField name="children" label={label} inline>
      {({ key, defaultValue, ...c }) => <input key={key} {...c} type="checkbox" value="true" defaultChecked={defaultValue === 'true'} />}
    </KitField>
  )
}

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
  // The realm the figures are for: the one asked in the URL, else the current one; named, never by its code.
  const picker = state.realms.realms.length > 1
  const realmCode = state.query.realm ?? state.realms.current
  const realmName = state.realms.realms.find((r) => r.code === realmCode)?.name
  const withChildren = state.query.children === 'true'
  // Tabs keep the period and the filters (the realm above all); the session report's own fields stay behind.
  const tabQuery = queryOf(state, { report: '', nick: '' })
  const answer = state.answer
  const columnLabel = (c: string) => t(`analytics.column.${c}`)
  const cellText = (c: string, v: string | number) =>
    c === 'label' && answer && ['published', 'opened', 'delivered', 'corrected'].includes(String(v)) ? t(`analytics.column.${v}`) : undefined
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
      </div>
      {realmName && !state.failure?.startsWith('forbidden') ? (
        <p className="hint analytics-scope">{t(withChildren ? 'analytics.scope.children' : 'analytics.scope', { name: realmName })}</p>
      ) : null}
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
                    to={tab.to.endsWith('/ledger') ? tab.to : `${tab.to}?${tabQuery}`}
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
        state={picker ? { ...state, query: { ...state.query, realm: realmCode } } : state}
        schema={reports ? SessionReportQuery : AnalyticsQuery}
        fields={[
          ...(picker ? realmFields : []),
          ...filterFields,
          ...(reports ? [{ name: 'nick', label: 'analytics.filter.nick', kind: 'text' } as const] : []),
        ]}
        hidden={reports ? { report: current } : {}}
      >
        {picker ? (
          <>
            <SelectInput
              name="realm"
              label={t('analytics.filter.realm')}
              options={state.realms.realms.map((r) => ({ value: r.code, label: `${indent(r.depth)}${r.name}` }))}
            />
            <ChildrenCheckbox label={t('analytics.filter.children.true')} />
          </>
        ) : null}
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
