import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { can } from '#shared/access'
import type { ErrorItem } from '#shared/schemas/error'
import { AnimationGenerate, VoiceCloneInput, type PersonaAnimation } from '#shared/schemas/persona-media'
import { Id } from '#shared/schemas/tms/common'
import { apiData } from '~/server/api.server'
import { apiResult, resourceInvalid, resourceJson, resourceResponse } from '~/server/api-action.server'
import { requireAccess, requireUser } from '~/server/auth.server'

/**
 * GET/POST /personai/media/{personaId}: the data and actions of the persona editor's paid media (issue 16): the
 * generated animations with their states and the paid operations' prices (`components/persona-media/`), a resource
 * route their fetchers call. Reading needs a persona read or edit permission; generating and cloning need
 * `persona_persona_edit` (both and `persona_enabled`, as the API).
 */
const READ = { any: ['persona_persona_get', 'persona_persona_edit'], flags: ['persona_enabled' as const] }
const EDIT = { all: ['persona_persona_edit'], flags: ['persona_enabled' as const] }
const headers = { 'Cache-Control': 'no-store' }

export interface PersonaMediaData {
  state: 'ok' | 'forbidden'
  items: PersonaAnimation[]
  /** The realm's animation provider, or null (the browser animates the image). */
  provider: string | null
  voiceCloneReady: boolean
  prices: { animation: number | null; voice_clone: number | null }
  canEdit: boolean
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, realm, api } = await requireUser(request, context)
  const none: PersonaMediaData = {
    state: 'forbidden',
    items: [],
    provider: null,
    voiceCloneReady: false,
    prices: { animation: null, voice_clone: null },
    canEdit: false,
  }
  if (!can(user.permissions, realm.config, READ)) return Response.json(none, { headers })
  const id = v.safeParse(Id, params.personaId ?? '')
  if (!id.success) throw new Response(null, { status: 404 })
  // The prices are the realm's price list, as /api/ai/status answers them (that endpoint needs persona_persona_list).
  const list = await apiData(api.personai.persona[':personaId'].animation.$get({ param: { personaId: id.output } }))
  const answer: PersonaMediaData = {
    state: 'ok',
    items: list.items,
    provider: list.provider,
    voiceCloneReady: Boolean(list.voice_clone_provider),
    prices: list.prices,
    canEdit: can(user.permissions, realm.config, EDIT),
  }
  return Response.json(answer, { headers })
}

/** POST ?intent=animation|clone with the JSON body of the API's endpoint (the price confirmed, the idempotency key). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = v.safeParse(Id, params.personaId ?? '')
  if (!id.success) throw new Response(null, { status: 404 })
  const param = { personaId: id.output }
  const intent = new URL(request.url).searchParams.get('intent')
  if (intent !== 'animation' && intent !== 'clone') return resourceInvalid('intent', 'validation.picklist')
  const { api } = await requireAccess(request, context, EDIT)
  if (intent === 'animation') {
    const body = await resourceJson(request, AnimationGenerate)
    if ('refused' in body) return body.refused
    return resourceResponse(
      await apiResult(async () => ({
        ok: true as const,
        ...(await apiData(api.personai.persona[':personaId'].animation.$post({ param, json: body.output }))),
        errors: [] as ErrorItem[],
      })),
    )
  }
  const body = await resourceJson(request, VoiceCloneInput)
  if ('refused' in body) return body.refused
  return resourceResponse(
    await apiResult(async () => ({
      ok: true as const,
      ...(await apiData(api.personai.persona[':personaId'].voice.clone.$post({ param, json: body.output }))),
      errors: [] as ErrorItem[],
    })),
  )
}
