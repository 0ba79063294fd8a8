import { data, type AppLoadContext } from '@remix-run/cloudflare'
import * as v from 'valibot'
import type { ErrorItem } from '#shared/schemas/error'
import type { MetaverseToken } from '#shared/schemas/metaverse'
import { RealmApiError } from '~/server/api.server'
import { requireAccess } from '~/server/auth.server'

const roomsOf = (realm: string | null) => `mas/realm/${encodeURIComponent(realm ?? '')}/metaverse_room`

const ListAction = v.variant('intent', [
  v.object({ intent: v.literal('delete'), id: v.string() }),
  v.object({ intent: v.literal('token'), host: v.string(), email: v.string() }),
])

/** The list's actions: delete a room, generate an access token (host and e-mail both needed). */
export async function metaverseListAction(request: Request, context: AppLoadContext) {
  const body = v.safeParse(ListAction, await request.json().catch(() => null))
  const needs = body.success && body.output.intent === 'token' ? 'room_metaverse_token_generate' : 'mas_metaverse_room_delete'
  const { api, realm } = await requireAccess(request, context, { all: ['mas_metaverse_room_list', needs] })
  if (!body.success)
    return data(
      { ok: false, errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'errors.invalid' }] as ErrorItem[], token: null },
      { status: 400 },
    )
  try {
    if (body.output.intent === 'token') {
      const token = await api.put<MetaverseToken>('room/metaverse/token/generate', { host: body.output.host, email: body.output.email })
      return { ok: true, errors: [] as ErrorItem[], token }
    }
    await api.delete(`${roomsOf(realm.code)}/${encodeURIComponent(body.output.id)}`)
    return { ok: true, errors: [] as ErrorItem[], token: null }
  } catch (err) {
    if (err instanceof RealmApiError) return data({ ok: false, errors: err.errors, token: null }, { status: err.status })
    throw err
  }
}
