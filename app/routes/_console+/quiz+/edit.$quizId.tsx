import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { QuizInput } from '#shared/schemas/quiz'
import { apiData, orErrorResponse } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { QuizForm } from './__quiz-form'
import { channelOptions, withOwnChannel } from './__quiz.server'

export const handle = { title: 'pages.quiz.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm, user } = await requireRoute(request, context, 'quiz.edit')
  const [quiz, channels] = await Promise.all([
    orErrorResponse(apiData(api.quiz[':id'].$get({ param: { id: params.quizId ?? '' } }))),
    channelOptions(api, user),
  ])
  return { quiz, channels: withOwnChannel(channels, quiz), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'quiz.edit',
    schema: QuizInput,
    call: (api, json) => apiData(api.quiz[':id'].$put({ param: { id: params.quizId ?? '' }, json })),
    redirect: (saved) => `/quiz/control/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'resources.quiz.saved', values: { name: saved.name } }),
  })

/** A draft quiz's settings (seed 002 §3 "Quiz", §5); once started they no longer change (the API refuses with 409). */
export default function QuizEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.quiz.edit')}: {d.quiz.name}
        </h1>
        <Link to={`/quiz/control/${d.quiz.id}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {d.quiz.status === 'draft' ? (
        <QuizForm key={d.quiz.updated_at} quiz={d.quiz} channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
      ) : (
        <p role="status" className="hint">
          {t('quiz.error.not_editable')}
        </p>
      )}
    </>
  )
}

export const ErrorBoundary = RouteError
