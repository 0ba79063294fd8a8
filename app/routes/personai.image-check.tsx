import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { ImageCheckRequest, type ImageCheck } from '#shared/schemas/ai'
import type { ErrorItem } from '#shared/schemas/error'
import { apiData } from '~/server/api.server'
import { apiResult } from '~/server/api-action.server'
import { requireAccess } from '~/server/auth.server'

/**
 * POST /personai/image-check: the persona photo step's server check of an image it has just uploaded (issue 16), a
 * resource route in front of `POST /api/personai/persona/image-check`: answers `{ ok: true, check }` (checked, or not
 * run and why) or `{ ok: false, errors }` (the refusal: `no_face`, `celebrity`). Needs the persona create or edit
 * permission and `persona_enabled`, as the API.
 */
const WRITE = { any: ['persona_persona_create', 'persona_persona_edit'], flags: ['persona_enabled' as const] }

export type ImageCheckAnswer = { ok: true; check: ImageCheck; errors: ErrorItem[] } | { ok: false; errors: ErrorItem[] }

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireAccess(request, context, WRITE)
  let raw: unknown
  try {
    raw = await request.json()
  } catch {
    raw = null
  }
  const body = v.safeParse(ImageCheckRequest, raw)
  if (!body.success) {
    const errors: ErrorItem[] = [{ field: 'image_file_id', cause: 'invalid', value: null, message: body.issues[0]?.message ?? 'validation.invalid' }]
    return Response.json({ ok: false, errors } satisfies ImageCheckAnswer, { status: 400 })
  }
  const answer = await apiResult(async () => ({
    ok: true as const,
    check: await apiData(api.personai.persona['image-check'].$post({ json: body.output })),
    errors: [],
  }))
  if (answer instanceof Response) return answer
  const wrapped = answer as { type?: string; data?: unknown; init?: ResponseInit | null }
  if (wrapped && typeof wrapped === 'object' && wrapped.type === 'DataWithResponseInit') return Response.json(wrapped.data, wrapped.init ?? undefined)
  return Response.json(answer, { headers: { 'Cache-Control': 'no-store' } })
}
