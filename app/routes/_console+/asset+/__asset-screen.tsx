import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { AssetForm } from './__asset-form'
import type { assetFormData } from './__asset.server'

/**
 * The asset create and edit screen (`create.tsx` and `edit.$asset_id.tsx` give it their loader and action, from
 * `assetFormData`/`saveAsset`). Assets are not a plain entity: an upload or a link is resolved against the stored
 * file and the blocked hosts.
 */
export default function AssetScreen() {
  const { asset, canUpload, title } = useLoaderData<Awaited<ReturnType<typeof assetFormData>>>()
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
