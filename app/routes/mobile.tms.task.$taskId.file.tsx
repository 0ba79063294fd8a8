import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import { apiData, orErrorResponse } from '~/server/api.server'
import { studentApi } from '~/server/mobile-session.server'

export const loader = () => new Response('Method not allowed', { status: 405 })

const FileId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{8,64}$/))
const invalid = (field: string, message: string) => Response.json({ errors: [{ field, cause: 'invalid', value: null, message }] }, { status: 400 })

/**
 * The apply screen's uploads (issue 17), with the mobile-web session: `POST /mobile/tms/task/{taskId}/file` streams
 * the multipart form (`data`, `question_id`; the browser reports the progress) to the student API's
 * `POST /tms/answer-student/{taskId}/file`, which applies every rule; `DELETE …/file?id=` removes the student's own
 * temporary upload. The API's answer (the stored file, or the envelope with its status) comes back as it is.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const taskId = v.safeParse(Id, params.taskId ?? '')
  if (!taskId.success) return new Response(null, { status: 404 })
  const call = (await studentApi(request, context)).tms['answer-student'][':taskId'].file
  if (request.method === 'DELETE') {
    const id = v.safeParse(FileId, new URL(request.url).searchParams.get('id') ?? '')
    if (!id.success) return invalid('file_id', 'validation.id')
    await orErrorResponse(apiData(call[':fileId'].$delete({ param: { taskId: taskId.output, fileId: id.output } })))
    return new Response(null, { status: 204 })
  }
  if (request.method !== 'POST') return new Response('Method not allowed', { status: 405 })
  const type = request.headers.get('content-type') ?? ''
  if (!request.body || !type.startsWith('multipart/form-data')) return invalid('data', 'The upload must be multipart/form-data.')
  const file = await orErrorResponse(
    apiData(call.$post({ param: { taskId: taskId.output } }, { init: { body: request.body, headers: { 'content-type': type } } })),
  )
  return Response.json(file, { status: 201, headers: { 'Cache-Control': 'no-store' } })
}
