import { data, type AppLoadContext } from '@remix-run/cloudflare'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'

/**
 * The session detail's lifecycle actions (issue 15; behind the detail's guard, the API checks csm_session_edit or
 * csm_session_rerecord and the status): publish, unpublish, and rerecord with the justification typed in its dialog.
 */
export async function sessionLifecycleAction(request: Request, context: AppLoadContext, id: string) {
  const { api } = await requireRoute(request, context, 'session.detail')
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const session = api.csm.session[':id']
  return apiResult(
    async () => {
      if (intent === 'publish') await apiData(session.publish.$post({ param: { id } }))
      else if (intent === 'unpublish') await apiData(session.unpublish.$post({ param: { id } }))
      else if (intent === 'rerecord') await apiData(session.rerecord.$post({ param: { id }, json: { justification: String(form.get('justification') ?? '') } }))
      else
        return data(
          { ok: false, intent, errors: [{ field: 'intent', cause: 'invalid', value: intent, message: 'errors.invalid' }] as ErrorItem[] },
          { status: 400 },
        )
      return { ok: true as const, intent, errors: [] as ErrorItem[] }
    },
    { intent },
  )
}
