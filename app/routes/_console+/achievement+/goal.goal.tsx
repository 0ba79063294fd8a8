import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { GoalList } from './__goal-list'
import { goalDeleteAction, goalListLoader } from './__goal.server'

export const handle = { title: 'pages.goal.list' }

export const loader = ({ request, context }: LoaderFunctionArgs) => goalListLoader(request, context, 'goal')
export const action = ({ request, context }: ActionFunctionArgs) => goalDeleteAction(request, context, 'goal.list')

export default GoalList
export const ErrorBoundary = RouteError
