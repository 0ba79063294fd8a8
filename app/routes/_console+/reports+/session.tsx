import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { loadAnalytics } from '../analytics+/__analytics.server'
import { AnalyticsView } from '../analytics+/__analytics'

export const handle = { title: 'pages.reports.session' }

/** Session reports (seed 002 §2): watched videos, ranking of videos, by room, by user, a student's session report. */
export const loader = ({ request, context }: LoaderFunctionArgs) => loadAnalytics(request, context, 'reports.session', 'session-report')

export default function SessionReportsRoute() {
  const state = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return <AnalyticsView state={state} title={t('pages.reports.session')} current={state.query.report ?? 'watched_videos'} />
}

export const ErrorBoundary = RouteError
