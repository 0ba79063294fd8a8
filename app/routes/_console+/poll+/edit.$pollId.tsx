import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { PollInput } from '#shared/schemas/quiz'
import { apiData, orErrorResponse } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { channelOptions, withOwnChannel } from '../quiz+/__quiz.server'
import { PollForm } from './__poll-form'

export const handle = { title: 'pages.poll.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm, user } = await requireRoute(request, context, 'poll.edit')
  const [poll, channels] = await Promise.all([
    orErrorResponse(apiData(api.poll[':id'].$get({ param: { id: params.pollId ?? '' } }))),
    channelOptions(api, user),
  ])
  return { poll, channels: withOwnChannel(channels, poll), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'poll.edit',
    schema: PollInput,
    call: (api, json) => apiData(api.poll[':id'].$put({ param: { id: params.pollId ?? '' }, json })),
    redirect: (saved) => `/poll/control/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'resources.poll.saved', values: { name: saved.name } }),
  })

/** A draft poll's settings (seed 002 §3 "Poll", §5); once started they no longer change (the API refuses with 409). */
export default function PollEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.poll.edit')}: {d.poll.name}
        </h1>
        <Link to={`/poll/control/${d.poll.id}`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      {d.poll.status === 'draft' ? (
        <PollForm key={d.poll.updated_at} poll={d.poll} channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
      ) : (
        <p role="status" className="hint">
          {t('poll.error.not_editable')}
        </p>
      )}
    </>
  )
}

export const ErrorBoundary = RouteError
