import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { assetFormData, saveAsset } from './__asset.server'

export { default, ErrorBoundary } from './__asset-screen'

export const loader = ({ request, context, params }: LoaderFunctionArgs) => assetFormData(request, context, params.asset_id)

export const action = ({ request, context, params }: ActionFunctionArgs) => saveAsset(request, context, params.asset_id)
