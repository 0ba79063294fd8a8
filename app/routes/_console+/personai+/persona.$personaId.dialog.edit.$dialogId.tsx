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

export const handle = { title: 'pages.persona.dialog.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'persona.dialog.edit')
  const { persona, dialogs } = await personaDialogs(api, params.personaId ?? '')
  const dialog = dialogs.find((x) => x.id === params.dialogId)
  if (!dialog)
    throw Response.json({ errors: [{ field: 'dialog_id', cause: 'not_found', value: params.dialogId, message: 'persona.dialog.not_found' }] }, { status: 404 })
  return {
    persona,
    dialog,
    dialogs: dialogs.filter((x) => x.stage !== 'to_delete' && x.id !== dialog.id),
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

export const action = ({ request, context, params }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'persona.dialog.edit',
    schema: dialogSchema,
    prepare: prepareDialog,
    call: (api, json) =>
      apiData(
        api.personai.persona[':personaId'].dialog[':dialogId'].$put({ param: { personaId: params.personaId ?? '', dialogId: params.dialogId ?? '' }, json }),
      ),
    redirect: `/personai/persona/${encodeURIComponent(params.personaId ?? '')}/dialog`,
    flash: 'persona.dialog.saved',
  })

export default function DialogEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  const others = d.dialogs.map((x) => ({ id: x.id, label: dialogLabel(x, t(`persona.dialog.type.${x.type}`)) }))
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.persona.dialog.edit')}: {d.persona.name}
        </h1>
        <Link to={`/personai/persona/${encodeURIComponent(d.persona.id)}/dialog`} className="btn">
          {t('tms.form.back')}
        </Link>
      </div>
      <p className="hint">{t(`persona.stage.${d.dialog.stage}`)}</p>
      <DialogForm
        key={`${d.dialog.id}:${d.dialog.updated_at}`}
        dialog={d.dialog}
        others={others}
        speechType={d.persona.speech_type}
        lastResult={lastResult}
        timeZone={d.timeZone}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
