import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireUser } from '~/server/auth.server'

export const loader = () => new Response('Method not allowed', { status: 405 })

/**
 * POST /upload: the console's upload endpoint. The browser sends the multipart form here (with progress); it is
 * streamed, unbuffered, to the realm API's POST /mas/file with the session's token, which applies every rule.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireUser(request, context)
  const type = request.headers.get('content-type') ?? ''
  if (!request.body || !type.startsWith('multipart/form-data')) {
    return Response.json({ errors: [{ field: 'data', cause: 'invalid', value: null, message: 'The upload must be multipart/form-data.' }] }, { status: 400 })
  }
  // A refusal answers the API's envelope and status (a resource route sends a thrown Response as it is).
  const file = await orErrorResponse(apiData(api.mas.file.$post(undefined, { init: { body: request.body, headers: { 'content-type': type } } })))
  return Response.json(file, { status: 201 })
}
