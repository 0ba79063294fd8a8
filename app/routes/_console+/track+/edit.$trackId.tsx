import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { TrackForm } from './__track-form'
import { trackAction, trackScreen } from './__track.server'

export const handle = { title: 'pages.track.edit' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => trackScreen(request, context, 'track.edit', params.trackId)
export const action = ({ request, context, params }: ActionFunctionArgs) => trackAction(request, context, 'track.edit', params.trackId)

export default TrackForm
export const ErrorBoundary = RouteError
