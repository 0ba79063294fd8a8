import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { SurveyModelEditor } from '~/components/survey/model-editor'
import { SURVEY_DEFAULTS } from '#shared/schemas/survey/survey'
import { requireRoute } from '~/server/auth.server'
import { surveyModelAction } from './__survey.server'

export const handle = { title: 'pages.survey.model.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRoute(request, context, 'survey.model.create')
  return null
}

export const action = ({ request, context }: ActionFunctionArgs) => surveyModelAction(request, context, null)

export default function SurveyModelCreateRoute() {
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.survey.model.create')}</h1>
        <Link to="/survey/model" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <SurveyModelEditor initial={SURVEY_DEFAULTS} locked={false} />
    </>
  )
}

export const ErrorBoundary = RouteError
