import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import quizList from '~/lists/quiz'
import type { Quiz } from '#shared/schemas/quiz'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.quiz.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, quizList)
  const p = user.permissions
  return { page, query, canCreate: p.quiz_quiz_create, canControl: p.quiz_quiz_control, canDelete: p.quiz_quiz_delete }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'quiz.list', (api, id) => api.quiz[':id'].$delete({ param: { id } }))

/** The quizzes of the realm; a row opens its control screen (questions, live run, statistics, winners). */
export default function QuizListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Quiz>
      spec={quizList}
      page={data.page as typeof data.page & { items: Quiz[] }}
      query={data.query}
      title={t('pages.quiz.list')}
      create={data.canCreate ? { to: '/quiz/create', label: t('pages.quiz.create') } : null}
      editTo={data.canControl ? (row) => `/quiz/control/${row.id}` : null}
      canDelete={data.canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
