import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { assistantSchema, prepareAssistant } from './__assistant'
import { AssistantForm } from './__assistant-form'
import { assistantDefaults, personaOptions } from './__assistant.server'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.assistant.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'assistant.create')
  const [personas, defaults] = await Promise.all([personaOptions(api, user), assistantDefaults(api)])
  const asked = new URL(request.url).searchParams.get('persona') ?? ''
  return { personas, defaults, persona: personas.some((p) => p.value === asked) ? asked : '', timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'assistant.create',
    schema: assistantSchema('create'),
    prepare: prepareAssistant('create'),
    call: (api, json) => apiData(api.personai.assistant.$post({ json })),
    redirect: (saved) => `/personai/assistant/edit/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'assistant.saved', values: { name: saved.name } }),
  })

export default function AssistantCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('pages.assistant.create')} back="/personai/assistant" />
      <AssistantForm
        mode="create"
        assistant={null}
        personas={d.personas}
        persona={d.persona}
        defaults={d.defaults}
        lastResult={lastResult}
        timeZone={d.timeZone}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
