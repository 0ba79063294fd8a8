import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DeleteConfirm } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import metaverseList from '~/lists/metaverse'
import type { MetaverseRoom } from '#shared/schemas/metaverse'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { loadList } from '~/server/list.server'
import { MetaverseTokenDialog } from './__metaverse-token'
import { metaverseListAction } from './__metaverse.server'

export const handle = { title: 'pages.metaverse.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, realm } = await loadList(request, context, metaverseList)
  const p = user.permissions
  return {
    page,
    query,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
    canCreate: p.mas_metaverse_room_create === true,
    canEdit: p.mas_metaverse_room_edit === true,
    canDelete: p.mas_metaverse_room_delete === true,
    canToken: p.room_metaverse_token_generate === true,
  }
}

export const action = ({ request, context }: ActionFunctionArgs) => metaverseListAction(request, context)

export default function MetaverseListRoute() {
  const { page, query, timeZone, canCreate, canEdit, canDelete, canToken } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const remover = useFetcher<typeof action>()
  const [removing, setRemoving] = useState<MetaverseRoom | null>(null)
  const [tokenHost, setTokenHost] = useState<string | null>(null)
  useResultToast(remover, 'resources.metaverse_room.deleted')
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.metaverse.list')}</h1>
        <div className="toolbar-actions">
          {canToken ? (
            <button type="button" className="btn" onClick={() => setTokenHost('')}>
              <Icon name="key" /> {t('resources.metaverse_room.token.title')}
            </button>
          ) : null}
          {canCreate ? (
            <Link to="/metaverse/create" className="btn btn-primary">
              <Icon name="plus" /> {t('pages.metaverse.create')}
            </Link>
          ) : null}
        </div>
      </div>
      <EntityTable<MetaverseRoom>
        spec={metaverseList}
        page={page}
        query={query}
        title={t('pages.metaverse.list')}
        rowActions={(row) => (
          <>
            {canToken && row.host ? (
              <button type="button" className="btn btn-icon" onClick={() => setTokenHost(row.host)}>
                <Icon name="key" label={t('resources.metaverse_room.token.for', { name: row.name })} />
              </button>
            ) : null}
            {canEdit ? (
              <Link className="btn btn-icon" to={`/metaverse/edit/${encodeURIComponent(row.id)}`}>
                <Icon name="edit" label={t('resources.metaverse_room.edit', { name: row.name })} />
              </Link>
            ) : null}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => setRemoving(row)}>
                <Icon name="trash" label={t('resources.metaverse_room.delete', { name: row.name })} />
              </button>
            ) : null}
          </>
        )}
      />
      {tokenHost !== null ? <MetaverseTokenDialog host={tokenHost} timeZone={timeZone} onClose={() => setTokenHost(null)} /> : null}
      <DeleteConfirm
        item={removing}
        prefix="resources.metaverse_room"
        values={{ name: removing?.name ?? '' }}
        onConfirm={() => removing && remover.submit({ intent: 'delete', id: removing.id }, { method: 'post' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
