import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { RecordingPolicyQuery, RecordingStart } from '#shared/schemas/csm-recording'
import { apiData, orErrorResponse } from '~/server/api.server'
import { participantApi } from '~/server/mobile-session.server'

/**
 * /recording: the live views' recorder (app/components/live/recorder.tsx) reaches the realm's recording API
 * (`/api/csm/recording`) here with the browser's session — the console's, else the participant view's mobile-web one
 * (`participantApi`) — as /party/ticket does. Every rule is the API's; refusals answer its envelope and status.
 * - `GET ?op=policy&target=&id=`: whether the visitor records there; `GET ?op=state&rec=`: a recording's parts.
 * - `POST ?op=start` (JSON `{ target, id, mime }`), `POST ?op=part&rec=&index=` (the part's bytes, streamed as they
 *   come), `POST ?op=complete&rec=`, `POST ?op=abort&rec=`.
 */

const Rec = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))
const LoaderQuery = v.variant('op', [v.object({ op: v.literal('policy'), ...RecordingPolicyQuery.entries }), v.object({ op: v.literal('state'), rec: Rec })])
const ActionQuery = v.variant('op', [
  v.object({ op: v.literal('start') }),
  v.object({ op: v.literal('part'), rec: Rec, index: v.pipe(v.string(), v.regex(/^\d{1,5}$/)) }),
  v.object({ op: v.literal('complete'), rec: Rec }),
  v.object({ op: v.literal('abort'), rec: Rec }),
])

const noStore = { 'Cache-Control': 'no-store' }
const invalid = (field: string) => Response.json({ errors: [{ field, cause: 'invalid', value: null, message: 'Invalid recording request.' }] }, { status: 400 })

export async function loader({ request, context }: LoaderFunctionArgs) {
  const parsed = v.safeParse(LoaderQuery, Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) return invalid('op')
  const q = parsed.output
  const api = await participantApi(request, context)
  if (q.op === 'policy') {
    return Response.json(await orErrorResponse(apiData(api.csm.recording.policy.$get({ query: { target: q.target, id: q.id } }))), { headers: noStore })
  }
  return Response.json(await orErrorResponse(apiData(api.csm.recording[':id'].$get({ param: { id: q.rec } }))), { headers: noStore })
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = v.safeParse(ActionQuery, Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) return invalid('op')
  const q = parsed.output
  const api = await participantApi(request, context)
  if (q.op === 'start') {
    const body = v.safeParse(RecordingStart, await request.json().catch(() => null))
    if (!body.success) return invalid('body')
    return Response.json(await orErrorResponse(apiData(api.csm.recording.$post({ json: body.output }))), { status: 201, headers: noStore })
  }
  if (q.op === 'part') {
    if (!request.body) return invalid('body')
    const length = request.headers.get('content-length')
    const init = { body: request.body, headers: { 'content-type': 'application/octet-stream', ...(length ? { 'content-length': length } : {}) } }
    const answer = await orErrorResponse(apiData(api.csm.recording[':id'].part[':index'].$put({ param: { id: q.rec, index: q.index } }, { init })))
    return Response.json(answer, { headers: noStore })
  }
  const param = { param: { id: q.rec } }
  if (q.op === 'complete') return Response.json(await orErrorResponse(apiData(api.csm.recording[':id'].complete.$post(param))), { headers: noStore })
  return Response.json(await orErrorResponse(apiData(api.csm.recording[':id'].abort.$post(param))), { headers: noStore })
}
