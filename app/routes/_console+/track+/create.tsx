import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { TrackForm } from './__track-form'
import { trackAction, trackScreen } from './__track.server'

export const handle = { title: 'pages.track.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => trackScreen(request, context, 'track.create')
export const action = ({ request, context }: ActionFunctionArgs) => trackAction(request, context, 'track.create')

export default TrackForm
export const ErrorBoundary = RouteError
