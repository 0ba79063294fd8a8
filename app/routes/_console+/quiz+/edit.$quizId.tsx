import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SettingsPage } from '~/components/quiz/settings-page'
import { RouteError } from '~/components/shell/route-error'
import { QuizInput } from '#shared/schemas/quiz'
import { apiData } from '~/server/api.server'
import { saveSettings, settingsFormData } from './__quiz.server'
import { QuizForm } from './__quiz-form'

export const handle = { title: 'pages.quiz.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { saved, ...d } = await settingsFormData(request, context, 'quiz.edit', (api) => apiData(api.quiz[':id'].$get({ param: { id: params.quizId ?? '' } })))
  return { quiz: saved!, ...d }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  saveSettings(request, context, 'quiz', {
    route: 'quiz.edit',
    schema: QuizInput,
    call: (api, json) => apiData(api.quiz[':id'].$put({ param: { id: params.quizId ?? '' }, json })),
  })

/** A draft quiz's settings (seed 002 §3 "Quiz", §5); once started they no longer change (the API refuses with 409). */
export default function QuizEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <SettingsPage title={`${t('pages.quiz.edit')}: ${d.quiz.name}`} back={`/quiz/control/${d.quiz.id}`}>
      {d.quiz.status === 'draft' ? (
        <QuizForm key={d.quiz.updated_at} draft={d.quiz} channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
      ) : (
        <p role="status" className="hint">
          {t('quiz.error.not_editable')}
        </p>
      )}
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteError
