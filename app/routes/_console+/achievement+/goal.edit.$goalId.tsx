import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { GoalScreen } from './__goal-form'
import { goalAction, goalScreen } from './__goal.server'

export const handle = { title: 'pages.goal.edit' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => goalScreen(request, context, 'goal.edit', params.goalId)
export const action = ({ request, context, params }: ActionFunctionArgs) => goalAction(request, context, 'goal.edit', params.goalId)

export default GoalScreen
export const ErrorBoundary = RouteError
