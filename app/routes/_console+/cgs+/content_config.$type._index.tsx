import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { ContentConfigList } from './__content-config-list'
import { configDelete, configList } from './__content-config-list.server'

export const handle = { title: 'pages.cgs.content_config.type' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => configList(request, context, params.type ?? '')
export const action = ({ request, context }: ActionFunctionArgs) => configDelete(request, context, 'cgs.content_config.type')

export default ContentConfigList
export const ErrorBoundary = RouteError
