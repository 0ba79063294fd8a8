import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import assistantList from '~/lists/assistant'
import type { Assistant } from '#shared/schemas/assistant'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.assistant.list' }

/** Assistants (seed 002 §2): search, sort, cursor paging and the CSV export of the entity machinery. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, assistantList)
  const p = user.permissions
  return { page, query, canCreate: p.persona_assistant_create, canEdit: p.persona_assistant_edit, canDelete: p.persona_assistant_delete }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'assistant.list', (api, id) => api.personai.assistant[':id'].$delete({ param: { id } }))

export default function AssistantListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Assistant>
      spec={assistantList}
      page={data.page as typeof data.page & { items: Assistant[] }}
      query={data.query}
      title={t('pages.assistant.list')}
      create={data.canCreate ? { to: '/personai/assistant/create', label: t('pages.assistant.create') } : null}
      editTo={data.canEdit ? (row) => `/personai/assistant/edit/${row.id}` : null}
      canDelete={data.canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
