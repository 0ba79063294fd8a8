import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { PollInput } from '#shared/schemas/quiz'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { channelOptions } from '../quiz+/__quiz.server'
import { PollForm } from './__poll-form'

export const handle = { title: 'pages.poll.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, realm, user } = await requireRoute(request, context, 'poll.create')
  return { channels: await channelOptions(api, user), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'poll.create',
    schema: PollInput,
    call: (api, json) => apiData(api.poll.$post({ json })),
    redirect: (saved) => `/poll/control/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'resources.poll.saved', values: { name: saved.name } }),
  })

/** A new poll's settings (seed 002 §3 "Poll", §5); its questions are added on the control screen. */
export default function PollCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.poll.create')}</h1>
        <Link to="/poll" className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <PollForm channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
    </>
  )
}

export const ErrorBoundary = RouteError
