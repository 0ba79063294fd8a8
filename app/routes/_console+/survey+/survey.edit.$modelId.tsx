import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SurveyPublishForm } from '~/components/survey/publish-form'
import { RouteError } from '~/components/shell/route-error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { surveyPublishAction } from './__survey.server'

export const handle = { title: 'pages.survey.survey.edit' }

/** `/survey/survey/edit/{modelId}`: publishes a survey model (targets and dates), as `tms/task/edit/{modelId}` does a task model. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'survey.survey.edit')
  const [model, options] = await Promise.all([
    orErrorResponse(apiData(api.survey.model[':id'].$get({ param: { id: params.modelId ?? '' } }))),
    orErrorResponse(apiData(api.survey.survey.options.$get())),
  ])
  return { model: { id: model.id, title: model.title, questions: model.questions.length }, options, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) => surveyPublishAction(request, context, 'survey.survey.edit')

export default function SurveyPublishRoute() {
  const { model, options, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.survey.survey.edit')}</h1>
          <p className="hint">
            {model.title} · {t('survey.model.questions', { count: model.questions })}
          </p>
        </div>
        <Link to="/survey/survey" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {model.questions === 0 ? (
        <p className="alert alert-info" role="alert">
          {t('validation.survey.no_questions')}
        </p>
      ) : null}
      <SurveyPublishForm modelId={model.id} options={options} timeZone={timeZone} />
    </>
  )
}

export const ErrorBoundary = RouteError
