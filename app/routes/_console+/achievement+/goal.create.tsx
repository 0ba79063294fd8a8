import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { GoalScreen } from './__goal-form'
import { goalAction, goalScreen } from './__goal.server'

export const handle = { title: 'pages.goal.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => goalScreen(request, context, 'goal.create')
export const action = ({ request, context }: ActionFunctionArgs) => goalAction(request, context, 'goal.create')

export default GoalScreen
export const ErrorBoundary = RouteError
