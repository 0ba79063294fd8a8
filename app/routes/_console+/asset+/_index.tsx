import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CopyButton } from '~/components/ui/copy-button'
import { DeleteConfirm } from '~/components/ui/dialog'
import { EntityTable } from '~/components/ui/entity-table'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useResultToast } from '~/components/ui/toast'
import assetList from '~/lists/asset'
import type { Asset } from '#shared/schemas/asset'
import { loadList } from '~/server/list.server'
import { deleteAsset } from './__asset.server'

export const handle = { title: 'pages.asset.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user } = await loadList(request, context, assetList)
  const p = user.permissions
  return { page, query, canCreate: p.asset_asset_create === true, canEdit: p.asset_asset_edit === true, canDelete: p.asset_asset_delete === true }
}

export const action = ({ request, context }: ActionFunctionArgs) => deleteAsset(request, context)

export default function AssetListRoute() {
  const { page, query, canCreate, canEdit, canDelete } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const fetcher = useFetcher<typeof action>()
  const [removing, setRemoving] = useState<Asset | null>(null)
  useResultToast(fetcher, 'resources.asset.deleted')
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.asset.list')}</h1>
        {canCreate ? (
          <Link to="/asset/create" className="btn btn-primary">
            <Icon name="plus" /> {t('pages.asset.create')}
          </Link>
        ) : null}
      </div>
      <EntityTable<Asset>
        spec={assetList}
        page={page}
        query={query}
        title={t('pages.asset.list')}
        rowActions={(row) => (
          <>
            <CopyButton text={row.url} label={t('resources.asset.copy_link_of', { name: row.name })} iconOnly />
            <a className="btn btn-icon" href={row.url} target="_blank" rel="noopener noreferrer">
              <Icon name="link" label={t('resources.asset.open', { name: row.name })} />
            </a>
            {canEdit ? (
              <Link className="btn btn-icon" to={`/asset/edit/${encodeURIComponent(row.id)}`}>
                <Icon name="edit" label={t('resources.asset.edit', { name: row.name })} />
              </Link>
            ) : null}
            {canDelete ? (
              <button type="button" className="btn btn-icon" onClick={() => setRemoving(row)}>
                <Icon name="trash" label={t('resources.asset.delete', { name: row.name })} />
              </button>
            ) : null}
          </>
        )}
      />
      <DeleteConfirm
        item={removing}
        prefix="resources.asset"
        values={{ name: removing?.name ?? '' }}
        onConfirm={() => removing && fetcher.submit({ id: removing.id }, { method: 'post' })}
        onClose={() => setRemoving(null)}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
