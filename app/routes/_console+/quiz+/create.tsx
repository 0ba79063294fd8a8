import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SettingsPage } from '~/components/quiz/settings-page'
import { RouteError } from '~/components/shell/route-error'
import { QuizInput } from '#shared/schemas/quiz'
import { apiData } from '~/server/api.server'
import { saveSettings, settingsFormData } from './__quiz.server'
import { QuizForm } from './__quiz-form'

export const handle = { title: 'pages.quiz.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => settingsFormData(request, context, 'quiz.create')

export const action = ({ request, context }: ActionFunctionArgs) =>
  saveSettings(request, context, 'quiz', { route: 'quiz.create', schema: QuizInput, call: (api, json) => apiData(api.quiz.$post({ json })) })

/** A new quiz's settings (seed 002 §3 "Quiz", §5); its questions are added on the control screen. */
export default function QuizCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <SettingsPage title={t('pages.quiz.create')} back="/quiz">
      <QuizForm channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteError
