import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { RouteError } from '~/components/shell/route-error'
import { GoalList } from './__goal-list'
import { goalDeleteAction, goalListLoader } from './__goal.server'

export const handle = { title: 'pages.goal.model' }

export const loader = ({ request, context }: LoaderFunctionArgs) => goalListLoader(request, context, 'model')
export const action = ({ request, context }: ActionFunctionArgs) => goalDeleteAction(request, context, 'goal.model')

export default GoalList
export const ErrorBoundary = RouteError
