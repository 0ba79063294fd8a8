import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { ContentConfigForm } from './__content-config-form'
import { configAction, configScreen } from './__content-config.server'

export const handle = { title: 'pages.cgs.content_config.create' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => configScreen(request, context, 'cgs.content_config.create', params)
export const action = ({ request, context, params }: ActionFunctionArgs) => configAction(request, context, 'cgs.content_config.create', params)

export default ContentConfigForm
export const ErrorBoundary = RouteError
