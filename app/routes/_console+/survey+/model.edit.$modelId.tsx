import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { SurveyModelEditor } from '~/components/survey/model-editor'
import { Icon } from '~/components/ui/icon'
import { SURVEY_CONTENT_FIELDS, type SurveyDraft } from '#shared/schemas/survey/survey'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { surveyModelAction } from './__survey.server'

export const handle = { title: 'pages.survey.model.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'survey.model.edit')
  const model = await orErrorResponse(apiData(api.survey.model[':id'].$get({ param: { id: params.modelId ?? '' } })))
  return { model, canPublish: Boolean(user.permissions.survey_survey_publish) }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => surveyModelAction(request, context, params.modelId ?? '')

export default function SurveyModelEditRoute() {
  const { model, canPublish } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const initial = Object.fromEntries(SURVEY_CONTENT_FIELDS.map((f) => [f, model[f]])) as SurveyDraft
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.survey.model.edit')}</h1>
          <p className="hint">{t('survey.model.published_count', { count: model.published_count ?? 0 })}</p>
        </div>
        <div className="toolbar-actions">
          {canPublish && model.questions.length ? (
            <Link to={`/survey/survey/edit/${model.id}`} className="btn">
              <Icon name="send" /> {t('survey.model.publish')}
            </Link>
          ) : null}
          <Link to="/survey/model" className="btn">
            {t('tms.form.back')}
          </Link>
        </div>
      </div>
      {/* Remounted after a save so the editor starts from what was stored. */}
      <SurveyModelEditor key={model.updated_at} initial={initial} locked={(model.published_count ?? 0) > 0} />
    </>
  )
}

export const ErrorBoundary = RouteError
