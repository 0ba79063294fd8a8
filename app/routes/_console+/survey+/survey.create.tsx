import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { SurveyPublishForm } from '~/components/survey/publish-form'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { DEFAULT_TIME_ZONE } from '~/server/entity-form.server'
import { surveyPublishAction } from './__survey.server'

export const handle = { title: 'pages.survey.survey.create' }

/** `/survey/survey/create`: choose a survey model with questions, then its targets and dates. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'survey.survey.create')
  const [models, options] = await Promise.all([
    orErrorResponse(apiData(api.survey.model.$get({ query: { limit: '1000', order: 'title' } }))),
    orErrorResponse(apiData(api.survey.survey.options.$get())),
  ])
  return {
    models: models.items.filter((m) => m.question_count > 0).map((m) => ({ id: m.id, title: m.title })),
    options,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => surveyPublishAction(request, context, 'survey.survey.create')

export default function SurveyCreateRoute() {
  const { models, options, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const id = useId()
  const [modelId, setModelId] = useState(models[0]?.id ?? '')
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.survey.survey.create')}</h1>
        <Link to="/survey/survey" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {models.length === 0 ? (
        <p className="card hint" role="status">
          {t('survey.publish.no_models')}
        </p>
      ) : (
        <>
          <div className="card field">
            <label htmlFor={`${id}-model`}>{t('survey.publish.model')}</label>
            <select id={`${id}-model`} className="input" value={modelId} onChange={(e) => setModelId(e.currentTarget.value)}>
              {models.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.title}
                </option>
              ))}
            </select>
          </div>
          <SurveyPublishForm modelId={modelId} options={options} timeZone={timeZone} />
        </>
      )}
    </>
  )
}

export const ErrorBoundary = RouteError
