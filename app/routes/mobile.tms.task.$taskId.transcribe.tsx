import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import { apiData, orErrorResponse } from '~/server/api.server'
import { studentApi } from '~/server/mobile-session.server'
import { readCapped } from '../../worker/lib/stream'

export const loader = () => new Response('Method not allowed', { status: 405 })

const Body = v.object({ question_id: Id, files: v.pipe(v.array(v.pipe(v.string(), v.maxLength(2000))), v.maxLength(20)) })

/**
 * POST /mobile/tms/task/{taskId}/transcribe `{ question_id, files }`: the apply screen's "Transcribe" when the realm
 * has a vision provider (issue 17), passed to the student API's `POST /tms/answer-student/{taskId}/transcribe` with the
 * mobile-web session. Answers `{ text }` or the API's envelope and status (`no_text_detected`, `transcription_failed`,
 * `essay_image_required`, …).
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const taskId = v.safeParse(Id, params.taskId ?? '')
  if (!taskId.success) return new Response(null, { status: 404 })
  let raw: unknown = null
  try {
    raw = JSON.parse(new TextDecoder().decode(await readCapped(request.body, 65_536, () => new Error('too large'))))
  } catch {
    raw = null
  }
  const body = v.safeParse(Body, raw)
  if (!body.success) return Response.json({ errors: [{ field: 'files', cause: 'invalid', value: null, message: 'validation.invalid' }] }, { status: 400 })
  const api = await studentApi(request, context)
  const answer = await orErrorResponse(apiData(api.tms['answer-student'][':taskId'].transcribe.$post({ param: { taskId: taskId.output }, json: body.output })))
  return Response.json(answer, { headers: { 'Cache-Control': 'no-store' } })
}
