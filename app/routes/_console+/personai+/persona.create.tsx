import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { apiData, orNull } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { personaSchema, preparePersona } from './__persona'
import { PersonaForm } from './__persona-form'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.persona.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'persona.create')
  const status = await orNull(apiData(api.ai.status.$get()), [403, 404])
  return { timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE, voiceCloneReady: Boolean(status?.voice_clone.elevenlabs) }
}

/** Creates the persona, then opens its editor (knowledge, dialogs, chat test and terms need the saved persona). */
export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'persona.create',
    schema: personaSchema,
    prepare: preparePersona,
    call: (api, json) => apiData(api.personai.persona.$post({ json })),
    redirect: (saved) => `/personai/persona/edit/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'persona.editor.saved', values: { name: saved.name } }),
  })

export default function PersonaCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('pages.persona.create')} back="/personai/persona" />
      <p className="hint">{t('persona.editor.create_hint')}</p>
      <PersonaForm persona={null} lastResult={lastResult} timeZone={d.timeZone} voiceCloneReady={d.voiceCloneReady} />
    </>
  )
}

export const ErrorBoundary = RouteError
