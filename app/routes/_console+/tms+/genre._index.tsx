import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import genreList from '~/lists/tms-genre'
import type { Genre } from '#shared/schemas/tms/genre'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'

export const handle = { title: 'pages.tms.genre.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, genreList)
  return { page, query, canCreate: user.permissions.tms_genre_create, canEdit: user.permissions.tms_genre_edit, canDelete: user.permissions.tms_genre_delete }
}

export const action = ({ request, context }: ActionFunctionArgs) => deleteRow(request, context, 'tms.genre.list', (id) => `tms/genre/${id}`)

export default function GenreListRoute() {
  const { page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Genre>
      spec={genreList}
      page={page}
      query={query}
      title={t('pages.tms.genre.list')}
      create={canCreate ? { to: '/tms/genre/create', label: t('pages.tms.genre.create') } : null}
      editTo={canEdit ? (row) => `/tms/genre/edit/${row.id}` : null}
      canDelete={canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
