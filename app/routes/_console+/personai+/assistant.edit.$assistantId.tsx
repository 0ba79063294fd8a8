import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { assistantSchema, prepareAssistant } from './__assistant'
import { AssistantForm } from './__assistant-form'
import { assistantDefaults } from './__assistant.server'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.assistant.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'assistant.edit')
  const id = params.assistantId ?? ''
  const [assistant, defaults] = await Promise.all([orErrorResponse(apiData(api.personai.assistant[':id'].$get({ param: { id } }))), assistantDefaults(api)])
  return { assistant, defaults, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'assistant.edit',
    schema: assistantSchema('edit'),
    prepare: prepareAssistant('edit'),
    call: (api, json) => apiData(api.personai.assistant[':id'].$put({ param: { id: params.assistantId ?? '' }, json })),
    redirect: `/personai/assistant/edit/${encodeURIComponent(params.assistantId ?? '')}`,
    flash: (saved) => ({ kind: 'success', message: 'assistant.saved', values: { name: saved.name } }),
  })

export default function AssistantEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={`${t('pages.assistant.edit')}: ${d.assistant.name}`} back="/personai/assistant" />
      <AssistantForm
        key={`${d.assistant.id}:${d.assistant.updated_at}`}
        mode="edit"
        assistant={d.assistant}
        personas={[]}
        persona=""
        defaults={d.defaults}
        lastResult={lastResult}
        timeZone={d.timeZone}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
