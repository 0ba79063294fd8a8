import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { apiData, orErrorResponse, type RealmApi } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { dialogSchema, prepareDialog } from './__dialog'

/** The persona (its name and speech type) and its dialogs, for the dialog screens (the dialog permissions suffice). */
export async function personaDialogs(api: RealmApi, personaId: string) {
  const answer = await orErrorResponse(apiData(api.personai.persona[':personaId'].dialog.$get({ param: { personaId } })))
  return { persona: answer.persona, dialogs: answer.items }
}

/** The dialog create and edit screens (their manifest ids). */
export type DialogScreenRoute = 'persona.dialog.create' | 'persona.dialog.edit'

/**
 * The dialog create or edit screen's data: the persona, the dialog edited (`params.dialogId`, 404 when the persona has
 * none such; null on create) and the other dialogs an option may lead to (not the ones waiting to be deleted).
 */
export async function dialogScreenLoader({ request, context, params }: LoaderFunctionArgs, route: DialogScreenRoute) {
  const { api, realm } = await requireRoute(request, context, route)
  const { persona, dialogs } = await personaDialogs(api, params.personaId ?? '')
  const dialog = route === 'persona.dialog.edit' ? dialogs.find((x) => x.id === params.dialogId) : null
  if (dialog === undefined)
    throw Response.json({ errors: [{ field: 'dialog_id', cause: 'not_found', value: params.dialogId, message: 'persona.dialog.not_found' }] }, { status: 404 })
  return {
    persona,
    dialog,
    dialogs: dialogs.filter((x) => x.stage !== 'to_delete' && x.id !== dialog?.id),
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

/** The dialog create or edit screen's action: the form posted (create) or put (edit), back to the dialog list. */
export function saveDialog({ request, context, params }: ActionFunctionArgs, route: DialogScreenRoute) {
  const personaId = params.personaId ?? ''
  return apiAction(request, context, {
    route,
    schema: dialogSchema,
    prepare: prepareDialog,
    call: (api, json) =>
      route === 'persona.dialog.edit'
        ? apiData(api.personai.persona[':personaId'].dialog[':dialogId'].$put({ param: { personaId, dialogId: params.dialogId ?? '' }, json }))
        : apiData(api.personai.persona[':personaId'].dialog.$post({ param: { personaId }, json })),
    redirect: `/personai/persona/${encodeURIComponent(personaId)}/dialog`,
    flash: 'persona.dialog.saved',
  })
}
