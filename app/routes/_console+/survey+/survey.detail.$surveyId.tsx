import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { Time } from '~/components/ui/clock'
import { Icon } from '~/components/ui/icon'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.survey.survey.detail' }

/** `/survey/survey/detail/{surveyId}`: the survey, its targets and who answered (with links to revise and to the result). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'survey.survey.detail')
  const id = params.surveyId ?? ''
  const [detail, answers] = await Promise.all([
    orErrorResponse(apiData(api.survey.survey[':id'].$get({ param: { id } }))),
    orErrorResponse(apiData(api.survey.survey[':id'].answers.$get({ param: { id } }))),
  ])
  const p = user.permissions
  return { survey: detail, answers: answers.items, can: { revise: Boolean(p.survey_survey_edit), result: Boolean(p.survey_survey_result) } }
}

export default function SurveyDetailRoute() {
  const { survey, answers, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{survey.title}</h1>
          <p className="hint">
            {t(`lesson.status.${survey.status}`)} · {survey.rooms || '—'} · {t('survey.model.questions', { count: survey.question_count })}
          </p>
        </div>
        <div className="toolbar-actions">
          {can.result ? (
            <Link to={`/survey/survey/${survey.id}/result`} className="btn">
              <Icon name="chart" /> {t('pages.survey.survey.result')}
            </Link>
          ) : null}
          <Link to="/survey/survey" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      {survey.description ? <p className="card">{survey.description}</p> : null}
      <section className="card" aria-labelledby="survey-answers">
        <h2 id="survey-answers">{t('survey.detail.answers', { count: answers.length })}</h2>
        {answers.length === 0 ? (
          <p className="hint" role="status">
            {t('survey.detail.empty')}
          </p>
        ) : (
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">{t('survey.detail.student')}</th>
                  <th scope="col">{t('survey.detail.room')}</th>
                  <th scope="col">{t('survey.detail.answered_at')}</th>
                  <th scope="col">{t('survey.detail.revisions')}</th>
                  {can.revise ? <th scope="col">{t('survey.detail.actions')}</th> : null}
                </tr>
              </thead>
              <tbody>
                {answers.map((a) => (
                  <tr key={a.id}>
                    <td>
                      {a.name} <span className="hint">({a.nick})</span>
                    </td>
                    <td>{a.room_name ?? '—'}</td>
                    <td>
                      <Time iso={a.created_at} />
                    </td>
                    <td>{a.revision_count ? t('survey.detail.revised_by', { count: a.revision_count, nick: a.updated_by }) : '—'}</td>
                    {can.revise ? (
                      <td>
                        <Link className="btn btn-icon" to={`/survey/survey/${survey.id}/${a.id}/revise`}>
                          <Icon name="edit" label={t('survey.detail.revise_of', { name: a.name })} />
                        </Link>
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </>
  )
}

export const ErrorBoundary = RouteError
