import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { CrudList } from '~/components/ui/crud-list'
import { entityAtPath, listSpecOf, pageTitle } from '~/lib/entity-screens'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'
import { permissionOf, type PlainEntity } from '#shared/entities/define'
import { plainEntity } from '#shared/entities/index'

/**
 * The list screen of every plain entity (app/shared/entities/): vite.config.ts mounts this module at each
 * declaration's list path; the entity is the one declared at the request's path.
 */
function entityOf(request: Request): PlainEntity {
  const e = entityAtPath(new URL(request.url).pathname)
  if (!e) throw data(null, { status: 404 })
  return e
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const e = entityOf(request)
  const { page, query, user } = await loadList(request, context, listSpecOf(e))
  return {
    entity: e.name,
    title: pageTitle(e, 'list'),
    page,
    query,
    canCreate: !!user.permissions[permissionOf(e, 'create')],
    canEdit: !!user.permissions[permissionOf(e, 'edit')],
    canDelete: !!user.permissions[permissionOf(e, 'delete')],
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => {
  const e = entityOf(request)
  return deleteRow(request, context, `${e.route.id}.list`, (api, id) => api.entity(e.api)[':id'].$delete({ param: { id } }))
}

export default function EntityListRoute() {
  const { entity, page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const e = plainEntity(entity)!
  const spec = useMemo(() => listSpecOf(e), [e])
  return (
    <CrudList<Record<string, unknown>>
      spec={spec}
      page={page as never}
      query={query}
      title={t(pageTitle(e, 'list'))}
      create={canCreate ? { to: `${e.route.path}/create`, label: t(pageTitle(e, 'create')) } : null}
      editTo={canEdit ? (row) => `${e.route.path}/edit/${encodeURIComponent(String(row[e.key]))}` : null}
      canDelete={canDelete}
      label={(row) => String(row[e.labelField] ?? row[e.key])}
    />
  )
}

export const ErrorBoundary = RouteError
