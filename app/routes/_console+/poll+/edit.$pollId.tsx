import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SettingsPage } from '~/components/quiz/settings-page'
import { RouteError } from '~/components/shell/route-error'
import { PollInput } from '#shared/schemas/quiz'
import { apiData } from '~/server/api.server'
import { saveSettings, settingsFormData } from '../quiz+/__quiz.server'
import { PollForm } from './__poll-form'

export const handle = { title: 'pages.poll.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { saved, ...d } = await settingsFormData(request, context, 'poll.edit', (api) => apiData(api.poll[':id'].$get({ param: { id: params.pollId ?? '' } })))
  return { poll: saved!, ...d }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  saveSettings(request, context, 'poll', {
    route: 'poll.edit',
    schema: PollInput,
    call: (api, json) => apiData(api.poll[':id'].$put({ param: { id: params.pollId ?? '' }, json })),
  })

/** A draft poll's settings (seed 002 §3 "Poll", §5); once started they no longer change (the API refuses with 409). */
export default function PollEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <SettingsPage title={`${t('pages.poll.edit')}: ${d.poll.name}`} back={`/poll/control/${d.poll.id}`}>
      {d.poll.status === 'draft' ? (
        <PollForm key={d.poll.updated_at} draft={d.poll} channels={d.channels} timeZone={d.timeZone} lastResult={lastResult} />
      ) : (
        <p role="status" className="hint">
          {t('poll.error.not_editable')}
        </p>
      )}
    </SettingsPage>
  )
}

export const ErrorBoundary = RouteError
