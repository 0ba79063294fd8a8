import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import pollList from '~/lists/poll'
import type { Poll } from '#shared/schemas/quiz'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.poll.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, pollList)
  const p = user.permissions
  return { page, query, canCreate: p.poll_poll_create, canControl: p.poll_poll_control, canDelete: p.poll_poll_delete }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'poll.list', (api, id) => api.poll[':id'].$delete({ param: { id } }))

/** The polls of the realm; a row opens its control screen (questions, lifecycle, results). */
export default function PollListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Poll>
      spec={pollList}
      page={data.page as typeof data.page & { items: Poll[] }}
      query={data.query}
      title={t('pages.poll.list')}
      create={data.canCreate ? { to: '/poll/create', label: t('pages.poll.create') } : null}
      editTo={data.canControl ? (row) => `/poll/control/${row.id}` : null}
      canDelete={data.canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
