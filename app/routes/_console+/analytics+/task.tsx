import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { loadAnalytics } from './__analytics.server'
import { AnalyticsView } from './__analytics'

export const handle = { title: 'pages.analytics.task' }

/** Analytics, activity tab (seed 002 §2, issue 19): figures over the period, by day, month or year, with filters. */
export const loader = ({ request, context }: LoaderFunctionArgs) => loadAnalytics(request, context, 'analytics.task', 'task')

export default function AnalyticsTaskRoute() {
  const state = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return <AnalyticsView state={state} title={t('pages.analytics.task')} current="task" />
}

export const ErrorBoundary = RouteError
