import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useLoaderData, useNavigation, useSubmit } from '@remix-run/react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { BarChart } from '~/components/ui/bar-chart'
import { Icon } from '~/components/ui/icon'
import type { SurveyQuestionResult } from '#shared/schemas/survey/survey'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { roomParam } from './__survey.server'

export const handle = { title: 'pages.survey.survey.result' }

/** `/survey/survey/{surveyId}/result`: per question counts, percentages and a chart; a room filter; CSV export. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'survey.survey.result')
  const room = roomParam(request)
  return orErrorResponse(apiData(api.survey.survey[':id'].result.$get({ param: { id: params.surveyId ?? '' }, query: room ? { room } : {} })))
}

export default function SurveyResultRoute() {
  const r = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const id = useId()
  const submit = useSubmit()
  const navigation = useNavigation()
  const loading = navigation.state === 'loading'
  const csv = `/export/survey/${r.survey.id}${r.room ? `?room=${encodeURIComponent(r.room)}` : ''}`
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.survey.survey.result')}</h1>
          <p className="hint">
            {r.survey.title} · {t('survey.result.respondents', { count: r.respondents })}
          </p>
        </div>
        <div className="toolbar-actions">
          <a className="btn" href={csv} download>
            <Icon name="download" /> {t('table.export_csv')}
          </a>
          <Link to={`/survey/survey/detail/${r.survey.id}`} className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      <Form method="get" className="card field-row" onChange={(e) => submit(e.currentTarget)}>
        <div className="field">
          <label htmlFor={`${id}-room`}>{t('survey.result.room')}</label>
          <select id={`${id}-room`} name="room" className="input" defaultValue={r.room ?? ''}>
            <option value="">{t('survey.result.all_rooms')}</option>
            {r.rooms.map((room) => (
              <option key={room.id} value={room.id}>
                {room.name}
              </option>
            ))}
          </select>
        </div>
        <noscript>
          <button type="submit" className="btn">
            {t('survey.result.apply')}
          </button>
        </noscript>
      </Form>
      {loading ? (
        <p role="status" className="table-loading">
          <span className="spinner" aria-hidden="true" /> {t('table.loading')}
        </p>
      ) : null}
      {r.respondents === 0 ? (
        <p className="card" role="status">
          {t('survey.result.empty')}
        </p>
      ) : (
        r.questions.map((q, i) => <QuestionResult key={q.id} q={q} n={i + 1} />)
      )}
    </>
  )
}

function QuestionResult({ q, n }: { q: SurveyQuestionResult; n: number }) {
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const title = `${n}. ${q.statement}`
  const pct = (x: number) => `${new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(x)}%`
  return (
    <section className="card survey-result" aria-labelledby={`sr-${q.id}`} data-question={q.id}>
      <h2 id={`sr-${q.id}`}>{title}</h2>
      <p className="hint">
        {t(`survey.type.${q.type}`)} · {t('survey.result.answered', { count: q.answered })}
        {q.mean !== null ? ` · ${t('survey.result.mean', { mean: new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(q.mean) })}` : ''}
      </p>
      {q.type === 'text' ? (
        q.texts.length ? (
          <ul className="survey-texts">
            {q.texts.map((text, k) => (
              <li key={k}>{text}</li>
            ))}
          </ul>
        ) : (
          <p role="status">{t('survey.result.no_answers')}</p>
        )
      ) : (
        <>
          <BarChart
            title={title}
            summary={t('survey.result.chart_summary', { count: q.options.length, answered: q.answered })}
            labels={q.options.map((o) => o.label)}
            series={[{ key: 'count', label: t('survey.result.count') }]}
            values={[q.options.map((o) => o.count)]}
            format={(x) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(x)}
          />
          <div className="table-wrap">
            <table className="data">
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('survey.result.option')}</th>
                  <th scope="col" style={{ textAlign: 'right' }}>
                    {t('survey.result.count')}
                  </th>
                  <th scope="col" style={{ textAlign: 'right' }}>
                    {t('survey.result.percent')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {q.options.map((o, k) => (
                  <tr key={k}>
                    <th scope="row">{o.label}</th>
                    <td style={{ textAlign: 'right' }}>{o.count}</td>
                    <td style={{ textAlign: 'right' }}>{pct(o.percent)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  )
}

export const ErrorBoundary = RouteError
