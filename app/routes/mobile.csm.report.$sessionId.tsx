import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { WatchReport } from '#shared/schemas/csm-watch'
import { Id } from '#shared/schemas/tms/common'
import { apiData, orErrorResponse } from '~/server/api.server'
import { readCapped } from '../../worker/lib/stream'
import { participantApi } from '~/server/mobile-session.server'

/**
 * POST /mobile/csm/report/{sessionId} `{ slots }`: the player's watch report (issue 15), sent every slot period and
 * when the page is hidden or closed (`fetch` with `keepalive`, or `sendBeacon`'s text body), passed to the realm API's
 * `POST /csm/session/{id}/watch` with the browser's session. Its answer (progress, or the envelope) comes back.
 */
const invalid = (field: string) => Response.json({ errors: [{ field, cause: 'invalid', value: null, message: 'Invalid watch report.' }] }, { status: 400 })

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = v.safeParse(Id, params.sessionId ?? '')
  if (!id.success) return new Response(null, { status: 404 })
  let body: unknown = null
  try {
    body = JSON.parse(new TextDecoder().decode(await readCapped(request.body, 16_384, () => new Error('too large'))))
  } catch {
    return invalid('body')
  }
  const report = v.safeParse(WatchReport, body)
  if (!report.success) return invalid('slots')
  const api = await participantApi(request, context)
  const answer = await orErrorResponse(apiData(api.csm.session[':id'].watch.$post({ param: { id: id.output }, json: report.output })))
  return Response.json(answer, { headers: { 'Cache-Control': 'no-store' } })
}
