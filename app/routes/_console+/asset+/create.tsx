import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { AssetForm } from './__asset-form'
import { assetFormData, saveAsset } from './__asset.server'

export const handle = { title: 'pages.asset.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => assetFormData(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => saveAsset(request, context)

export default function AssetCreateRoute() {
  const { asset, canUpload } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.asset.create')}</h1>
        <Link to="/asset" className="btn">
          {t('resources.asset.back')}
        </Link>
      </div>
      <AssetForm key={asset?.updated_at ?? 'new'} asset={asset} canUpload={canUpload} />
    </>
  )
}

export const ErrorBoundary = RouteError
