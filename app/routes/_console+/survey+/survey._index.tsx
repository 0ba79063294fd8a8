import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import { Icon } from '~/components/ui/icon'
import { withFilterOptions } from '~/lib/list-format'
import surveyList from '~/lists/survey-survey'
import type { Survey } from '#shared/schemas/survey/survey'
import { listWithRooms } from '../lesson+/__lesson.server'
import { surveyDeleteAction } from './__survey.server'

export const handle = { title: 'pages.survey.survey.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, rooms } = await listWithRooms(request, context, surveyList, 'survey.survey.list')
  const p = user.permissions
  return {
    page,
    query,
    rooms,
    can: { publish: p.survey_survey_publish, remove: p.survey_survey_delete, result: p.survey_survey_result },
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => surveyDeleteAction(request, context, 'survey')

export default function SurveyListRoute() {
  const { page, query, rooms, can } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Survey>
      spec={withFilterOptions(surveyList, { room: rooms })}
      page={page}
      query={query}
      title={t('pages.survey.survey.list')}
      create={can.publish ? { to: '/survey/survey/create', label: t('pages.survey.survey.create') } : null}
      canDelete={Boolean(can.remove)}
      label={(s) => s.title}
      typeToConfirm={{ prefix: 'survey', word: t('lesson.delete_word') }}
      extraActions={(s) => (
        <>
          <Link className="btn btn-icon" to={`/survey/survey/detail/${s.id}`}>
            <Icon name="users" label={t('survey.detail.of', { name: s.title })} />
          </Link>
          {can.result ? (
            <Link className="btn btn-icon" to={`/survey/survey/${s.id}/result`}>
              <Icon name="chart" label={t('survey.result.of', { name: s.title })} />
            </Link>
          ) : null}
        </>
      )}
    />
  )
}

export const ErrorBoundary = RouteError
