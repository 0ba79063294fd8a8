import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import personaList from '~/lists/persona'
import type { Persona } from '#shared/schemas/persona'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.persona.list' }

/** Personas (seed 002 §2): search, sort, cursor paging and the CSV export of the entity machinery. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, personaList)
  const p = user.permissions
  return { page, query, canCreate: p.persona_persona_create, canEdit: p.persona_persona_edit, canDelete: p.persona_persona_delete }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'persona.list', (api, id) => api.personai.persona[':id'].$delete({ param: { id } }))

export default function PersonaListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Persona>
      spec={personaList}
      page={data.page as typeof data.page & { items: Persona[] }}
      query={data.query}
      title={t('pages.persona.list')}
      create={data.canCreate ? { to: '/personai/persona/create', label: t('pages.persona.create') } : null}
      editTo={data.canEdit ? (row) => `/personai/persona/edit/${row.id}` : null}
      canDelete={data.canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
