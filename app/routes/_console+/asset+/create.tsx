import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { assetFormData, saveAsset } from './__asset.server'

export { default, ErrorBoundary } from './__asset-screen'

export const loader = ({ request, context }: LoaderFunctionArgs) => assetFormData(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => saveAsset(request, context)
