import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { dialogLabel, dialogSchema, prepareDialog } from './__dialog'
import { DialogForm } from './__dialog-form'
import { personaDialogs } from './__dialog.server'

export const handle = { title: 'pages.persona.dialog.create' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'persona.dialog.create')
  const { persona, dialogs } = await personaDialogs(api, params.personaId ?? '')
  return { persona, dialogs: dialogs.filter((x) => x.stage !== 'to_delete'), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'persona.dialog.create',
    schema: dialogSchema,
    prepare: prepareDialog,
    call: (api, json) => apiData(api.personai.persona[':personaId'].dialog.$post({ param: { personaId: params.personaId ?? '' }, json })),
    redirect: `/personai/persona/${encodeURIComponent(params.personaId ?? '')}/dialog`,
    flash: 'persona.dialog.saved',
  })

export default function DialogCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  const others = d.dialogs.map((x) => ({ id: x.id, label: dialogLabel(x, t(`persona.dialog.type.${x.type}`)) }))
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.persona.dialog.create')}: {d.persona.name}
        </h1>
        <Link to={`/personai/persona/${encodeURIComponent(d.persona.id)}/dialog`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <DialogForm dialog={null} others={others} speechType={d.persona.speech_type} lastResult={lastResult} timeZone={d.timeZone} />
    </>
  )
}

export const ErrorBoundary = RouteError
