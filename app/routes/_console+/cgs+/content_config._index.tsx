import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { ContentConfigList } from './__content-config-list'
import { configDelete, configList } from './__content-config-list.server'

export const handle = { title: 'pages.cgs.content_config' }

export const loader = ({ request, context }: LoaderFunctionArgs) => configList(request, context)
export const action = ({ request, context }: ActionFunctionArgs) => configDelete(request, context, 'cgs.content_config')

export default ContentConfigList
export const ErrorBoundary = RouteError
