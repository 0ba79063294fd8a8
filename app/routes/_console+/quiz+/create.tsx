import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { QuizInput } from '#shared/schemas/quiz'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { QuizForm } from './__quiz-form'
import { channelOptions } from './__quiz.server'

export const handle = { title: 'pages.quiz.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, realm, user } = await requireRoute(request, context, 'quiz.create')
  return { channels: await channelOptions(api, user), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'quiz.create',
    schema: QuizInput,
    call: (api, json) => apiData(api.quiz.$post({ json })),
    redirect: (saved) => `/quiz/control/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'resources.quiz.saved', values: { name: saved.name } }),
  })

export default function QuizCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.quiz.create')}</h1>
        <Link to="/quiz" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <QuizForm channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
    </>
  )
}

export const ErrorBoundary = RouteError
