import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { can } from '#shared/access'
import type { ErrorItem } from '#shared/schemas/error'
import { LessonMediaGenerate, type LessonMediaState } from '#shared/schemas/lesson/media'
import { Id } from '#shared/schemas/tms/common'
import { apiData } from '~/server/api.server'
import { apiResult, resourceInvalid, resourceJson, resourceResponse } from '~/server/api-action.server'
import { requireAccess, requireUser } from '~/server/auth.server'

/**
 * GET/POST /lesson/media/{lessonId}: the lesson editor's narration audio and persona videos (issue 18), a resource
 * route the editor's fetchers call (as the persona editor's `/personai/media/{id}`). Reading needs
 * `lesson_model_get` or `lesson_model_edit`; generating needs `lesson_model_edit` (as the API).
 */
const READ = { any: ['lesson_model_get', 'lesson_model_edit'] }
const EDIT = { all: ['lesson_model_edit'] }
const headers = { 'Cache-Control': 'no-store' }

export type LessonMediaData = ({ state: 'ok' } & LessonMediaState & { canEdit: boolean }) | { state: 'forbidden' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, realm, api } = await requireUser(request, context)
  if (!can(user.permissions, realm.config, READ)) return Response.json({ state: 'forbidden' } satisfies LessonMediaData, { headers })
  const id = v.safeParse(Id, params.lessonId ?? '')
  if (!id.success) throw new Response(null, { status: 404 })
  const state = await apiData(api.lesson.model[':id'].media.$get({ param: { id: id.output } }))
  return Response.json({ state: 'ok', ...state, canEdit: can(user.permissions, realm.config, EDIT) } satisfies LessonMediaData, { headers })
}

/** POST ?intent=narration|video with the API's body (the price confirmed, the idempotency key). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = v.safeParse(Id, params.lessonId ?? '')
  if (!id.success) throw new Response(null, { status: 404 })
  const intent = new URL(request.url).searchParams.get('intent')
  if (intent !== 'narration' && intent !== 'video') return resourceInvalid('intent', 'validation.picklist')
  const { api } = await requireAccess(request, context, EDIT)
  const body = await resourceJson(request, LessonMediaGenerate)
  if ('refused' in body) return body.refused
  const param = { id: id.output }
  return resourceResponse(
    await apiResult(async () => ({
      ok: true as const,
      ...(await apiData(
        intent === 'narration'
          ? api.lesson.model[':id'].media.narration.$post({ param, json: body.output })
          : api.lesson.model[':id'].media.video.$post({ param, json: body.output }),
      )),
      errors: [] as ErrorItem[],
    })),
  )
}
