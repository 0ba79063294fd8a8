import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import { RealmApiError } from '~/server/api.server'
import { participantApi } from '~/server/mobile-session.server'

/**
 * GET /mobile/csm/video/{sessionId}: a session's video for the browser's `<video>` (issue 15), the realm API's
 * `GET /csm/session/{id}/video` with the browser's session (the mobile-web one, else the console's) and its `Range`
 * header passed on; the answer — 200, 206 with Content-Range, or 416 — streams back as it came. Every rule (who may
 * watch, realm) is the API's.
 */
const PASSED = ['content-type', 'content-length', 'content-range', 'accept-ranges', 'etag', 'cache-control']

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = v.safeParse(Id, params.sessionId ?? '')
  if (!id.success) return new Response(null, { status: 404 })
  const api = await participantApi(request, context)
  const range = request.headers.get('range')
  try {
    const res = await api.csm.session[':id'].video.$get({ param: { id: id.output } }, { init: { headers: range ? { range } : {} } })
    const headers = new Headers()
    for (const h of PASSED) {
      const value = res.headers.get(h)
      if (value) headers.set(h, value)
    }
    return new Response(res.body, { status: res.status, headers })
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    const headers = new Headers({ 'Cache-Control': 'no-store' })
    if (err.status === 416) headers.set('Content-Range', `bytes */${Number(err.errors[0]?.value ?? 0)}`)
    return Response.json({ errors: err.errors }, { status: err.status, headers })
  }
}
