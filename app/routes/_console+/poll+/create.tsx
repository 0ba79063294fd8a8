import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SettingsPage } from '~/components/quiz/settings-page'
import { RouteError } from '~/components/shell/route-error'
import { PollInput } from '#shared/schemas/quiz'
import { apiData } from '~/server/api.server'
import { saveSettings, settingsFormData } from '../quiz+/__quiz.server'
import { PollForm } from './__poll-form'

export const handle = { title: 'pages.poll.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => settingsFormData(request, context, 'poll.create')

export const action = ({ request, context }: ActionFunctionArgs) =>
  saveSettings(request, context, 'poll', { route: 'poll.create', schema: PollInput, call: (api, json) => apiData(api.poll.$post({ json })) })

/** A new poll's settings (seed 002 §3 "Poll", §5); its questions are added on the control screen. */
export default function PollCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <SettingsPage title={t('pages.poll.create')} back="/poll">
      <PollForm channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteError
