import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { AssetForm } from './__asset-form'
import { assetFormData, saveAsset } from './__asset.server'

/**
 * The asset create and edit screens (one module: `create.tsx` and `edit.$asset_id.tsx` re-export it). Assets are
 * not a plain entity: an upload or a link is resolved against the stored file and the blocked hosts.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return { ...(await assetFormData(request, context, params.asset_id)), title: params.asset_id ? 'pages.asset.edit' : 'pages.asset.create' }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => saveAsset(request, context, params.asset_id)

export default function AssetScreen() {
  const { asset, canUpload, title } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t(title)}</h1>
        <Link to="/asset" className="btn">
          {t('resources.asset.back')}
        </Link>
      </div>
      <AssetForm key={asset?.updated_at ?? 'new'} asset={asset} canUpload={canUpload} />
    </>
  )
}

export const ErrorBoundary = RouteError
