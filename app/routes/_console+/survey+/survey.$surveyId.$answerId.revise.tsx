import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { SurveyAnswerForm } from '~/components/survey/answer-form'
import { Time } from '~/components/ui/clock'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { surveyReviseAction } from './__survey.server'

export const handle = { title: 'pages.survey.survey.revise' }

/** `/survey/survey/{surveyId}/{answerId}/revise`: staff change a student's answer; every revision is kept with who made it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'survey.survey.revise')
  return orErrorResponse(apiData(api.survey.survey[':id'].answers[':answerId'].$get({ param: { id: params.surveyId ?? '', answerId: params.answerId ?? '' } })))
}

export const action = ({ request, context, params }: ActionFunctionArgs) => surveyReviseAction(request, context, params.surveyId ?? '', params.answerId ?? '')

export default function SurveyReviseRoute() {
  const { survey, answer, revisions } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.survey.survey.revise')}</h1>
          <p className="hint">
            {survey.title} · {answer.name} ({answer.nick}) · {answer.room_name ?? '—'}
          </p>
        </div>
        <Link to={`/survey/survey/detail/${survey.id}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <div className="card">
        <SurveyAnswerForm
          key={answer.updated_at}
          questions={survey.questions}
          isRequired={survey.is_required}
          initial={answer.answers}
          submitLabel={t('survey.revise.save')}
          failedTitle="survey.revise.failed"
        />
      </div>
      <section className="card" aria-labelledby="survey-history">
        <h2 id="survey-history">{t('survey.revise.history')}</h2>
        <p>
          {t('survey.revise.answered', { nick: answer.nick })} <Time iso={answer.created_at} />
        </p>
        {revisions.length === 0 ? (
          <p className="hint">{t('survey.revise.no_history')}</p>
        ) : (
          <ul>
            {revisions.map((r) => (
              <li key={r.id}>
                {t('survey.revise.revised_by', { nick: r.revised_by })} <Time iso={r.revised_at} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}

export const ErrorBoundary = RouteError
