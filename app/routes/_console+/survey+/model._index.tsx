import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import surveyModelList from '~/lists/survey-model'
import type { SurveyModel } from '#shared/schemas/survey/survey'
import { loadList } from '~/server/list.server'
import { surveyDeleteAction } from './__survey.server'

export const handle = { title: 'pages.survey.model.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, surveyModelList)
  const p = user.permissions
  return { page, query, can: { create: p.survey_model_create, edit: p.survey_model_edit, remove: p.survey_model_delete, publish: p.survey_survey_publish } }
}

export const action = ({ request, context }: ActionFunctionArgs) => surveyDeleteAction(request, context, 'model')

export default function SurveyModelListRoute() {
  const { page, query, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<SurveyModel>
      spec={surveyModelList}
      page={page}
      query={query}
      title={t('pages.survey.model.list')}
      create={can.create ? { to: '/survey/model/create', label: t('survey.model.new') } : null}
      editTo={can.edit ? (m) => `/survey/model/edit/${m.id}` : null}
      canDelete={Boolean(can.remove)}
      label={(m) => m.title}
      typeToConfirm={{ prefix: 'survey', word: t('lesson.delete_word') }}
      extraActions={(m) =>
        can.publish && m.question_count > 0 ? (
          <Link className="btn btn-icon" to={`/survey/survey/edit/${m.id}`}>
            <Icon name="send" label={t('survey.model.publish_of', { name: m.title })} />
          </Link>
        ) : null
      }
    />
  )
}

export const ErrorBoundary = RouteError
