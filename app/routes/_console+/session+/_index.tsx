import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import sessionList from '~/lists/session'
import { withFilterOptions } from '~/lib/list-format'
import type { SessionItem } from '#shared/schemas/session'
import { getT } from '~/server/i18n.server'
import { loadList } from '~/server/list.server'
import { sessionFilterOptions } from './__session.server'

export const handle = { title: 'pages.session.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, api } = await loadList(request, context, sessionList)
  const options = await sessionFilterOptions(api, user, await getT(request))
  return { page, query, options, canOpen: Boolean(user.permissions.csm_session_get), canCreate: Boolean(user.permissions.csm_session_create) }
}

export default function SessionListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const title = t('pages.session.list')
  return (
    <>
      <div className="page-header">
        <h1>{title}</h1>
        {data.canCreate ? (
          <Link to="/session/create" className="btn btn-primary">
            <Icon name="upload" /> {t('pages.session.create')}
          </Link>
        ) : null}
      </div>
      <EntityTable<SessionItem>
        spec={withFilterOptions(sessionList, data.options)}
        page={data.page as typeof data.page & { items: SessionItem[] }}
        query={data.query}
        title={title}
        rowActions={
          data.canOpen
            ? (row) => (
                <Link className="btn btn-icon" to={`/session/detail/${row.id}`}>
                  <Icon name="eye" label={t('session.open', { name: row.title || t('session.untitled') })} />
                </Link>
              )
            : undefined
        }
      />
    </>
  )
}

export const ErrorBoundary = RouteError
