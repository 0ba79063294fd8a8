import type { ActionFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { Answers, ClientId, DeliverInput, DraftInput } from '../../worker/lib/answer-schemas'
import type { ErrorItem } from '#shared/schemas/error'
import { Id } from '#shared/schemas/tms/common'
import { RealmApiError, apiData } from '~/server/api.server'
import { mobileApi, mobileToken } from '~/server/mobile-session.server'
import { getRealmContext } from '~/server/realm.server'

/** A delivery the offline client queued (app/lib/offline/sync.ts). */
const SyncInput = v.object({
  task_id: Id,
  answer_id: ClientId,
  receipt: DraftInput.entries.receipt,
  answers: Answers,
  elapsed_ms: DeliverInput.entries.offline.wrapped.entries.elapsed_ms,
})

const noStore = { 'Cache-Control': 'no-store' }
const refuse = (status: number, errors: ErrorItem[]) => Response.json({ synced: false, errors }, { status, headers: noStore })
const notHere = () => refuse(404, [{ field: '', cause: 'not_found', value: null, message: 'Not found.' }])

/**
 * POST /mobile/tms/sync (the mobile-web session; issue 17): sends one offline delivery to the API
 * (`POST /tms/answer-student/{taskId}/deliver` with `offline: { elapsed_ms }`, so the server judges it by the signed
 * open time and the device's elapsed time). Answers `{ synced: true }` when delivered now or already before (409
 * `answer_already_registered`: the same `answer_id` arrived earlier), else the API's refusal with its status. Bad
 * input answers the envelope (400) and sends nothing; without a session 401 `unauthorized`.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== 'POST') return notHere()
  const realm = await getRealmContext(request, context)
  if (!realm.config) return refuse(404, [{ field: '', cause: 'not_found', value: null, message: 'Realm not found.' }])
  const token = await mobileToken(request)
  if (!token) return refuse(401, [{ field: '', cause: 'unauthorized', value: null, message: 'Sign in again.' }])
  const body = v.safeParse(SyncInput, await request.json().catch(() => null))
  if (!body.success)
    return refuse(
      400,
      body.issues.map((i) => ({ field: v.getDotPath(i) ?? '', cause: 'invalid', value: null, message: i.message })),
    )
  const { task_id: taskId, elapsed_ms, ...delivery } = body.output
  const api = mobileApi(request, context, realm, token)
  try {
    await apiData(api.tms['answer-student'][':taskId'].deliver.$post({ param: { taskId }, json: { ...delivery, offline: { elapsed_ms } } }))
    return Response.json({ synced: true, already: false }, { headers: noStore })
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    // The same answer id delivered before: this device's delivery did arrive (counted once).
    if (err.has('answer_already_registered')) return Response.json({ synced: true, already: true }, { headers: noStore })
    return refuse(err.status, err.errors)
  }
}

/** Nothing to show at this address: the offline client only posts to it. */
export const loader = () => notHere()
