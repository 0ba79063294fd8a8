import { data, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import { MetaverseTokenRequest } from '#shared/schemas/metaverse'
import { apiAction, apiResult } from '~/server/api-action.server'
import { apiData } from '~/server/api.server'
import { requireAccess } from '~/server/auth.server'

const roomsOf = (realm: string | null) => `mas/realm/${encodeURIComponent(realm ?? '')}/metaverse_room`

/**
 * The list's actions: generate an access token (the dialog's kit form: host and e-mail both needed; the answer is
 * the submission with the token), or delete a room (a row's confirmation).
 */
export async function metaverseListAction(request: Request, context: AppLoadContext) {
  const form = await request.clone().formData()
  if (form.get('intent') === 'token')
    return apiAction(request, context, {
      access: { all: ['mas_metaverse_room_list', 'room_metaverse_token_generate'] },
      schema: MetaverseTokenRequest,
      call: (api, body) => apiData(api.room.metaverse.token.generate.$put({ json: body })),
      onSuccess: (token, submission) => ({ ...submission.reply(), token }),
    })
  const { api, realm } = await requireAccess(request, context, { all: ['mas_metaverse_room_list', 'mas_metaverse_room_delete'] })
  const id = v.safeParse(v.pipe(v.string(), v.minLength(1)), form.get('id'))
  if (form.get('intent') !== 'delete' || !id.success)
    return data({ ok: false, errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[] }, { status: 400 })
  return apiResult(async () => {
    await api.entity(roomsOf(realm.code))[':id'].$delete({ param: { id: id.output } })
    return { ok: true, errors: [] as ErrorItem[] }
  })
}
