import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { can } from '#shared/access'
import { FeedComposeInput, FeedQuery } from '#shared/schemas/feed'
import type { ErrorItem } from '#shared/schemas/error'
import { Id } from '#shared/schemas/tms/common'
import { RealmApiError, apiData } from '~/server/api.server'
import { apiAction, apiResult, resourceResponse } from '~/server/api-action.server'
import { requireAccess, requireUser } from '~/server/auth.server'

/**
 * GET/POST /feed/room/{roomId}: the data and actions of the room screen's feed panel (`components/feed/room-feed-panel`),
 * a resource route its fetchers call. Reading needs `sns_feed_list` or `sns_feed_edit` (without them the panel is
 * not shown: `state: 'forbidden'`); posting, pinning, unpinning, approving and deleting need `sns_feed_edit`.
 */
const READ = { any: ['sns_feed_list', 'sns_feed_edit'] }
const WRITE = { all: ['sns_feed_edit'] }
const Intent = v.picklist(['post', 'pin', 'unpin', 'approve', 'delete'])
const headers = { 'Cache-Control': 'no-store' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user, realm, api } = await requireUser(request, context)
  if (!can(user.permissions, realm.config, READ)) return Response.json({ state: 'forbidden' as const }, { headers })
  const id = v.safeParse(Id, params.roomId ?? '')
  if (!id.success) throw new Response(null, { status: 404 })
  const room = id.output
  const q = v.safeParse(FeedQuery, Object.fromEntries(new URL(request.url).searchParams))
  const query = q.success ? q.output : {}
  try {
    const page = await apiData(api.feed.post.$get({ query: { room, status: query.status, after: query.after } }))
    return Response.json({ state: 'ok' as const, page, canEdit: can(user.permissions, realm.config, WRITE) }, { headers })
  } catch (err) {
    if (err instanceof RealmApiError && err.has('disabled')) return Response.json({ state: 'disabled' as const }, { headers })
    throw err
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const roomId = v.safeParse(Id, params.roomId ?? '')
  if (!roomId.success) throw new Response(null, { status: 404 })
  const room = roomId.output
  const intent = v.safeParse(Intent, new URL(request.url).searchParams.get('intent'))
  if (!intent.success)
    return Response.json({ ok: false, errors: [{ field: 'intent', cause: 'invalid', value: null, message: 'validation.picklist' }] }, { status: 400 })
  if (intent.output === 'post')
    return resourceResponse(
      await apiAction(request, context, {
        access: WRITE,
        schema: FeedComposeInput,
        call: (api, json) => apiData(api.feed.post.$post({ json: { ...json, room_id: room } })),
        onSuccess: (answer, submission) => ({ ...submission.reply(), post: answer }),
      }),
    )
  const { api } = await requireAccess(request, context, WRITE)
  const post = v.safeParse(Id, String((await request.formData()).get('id') ?? ''))
  if (!post.success) return Response.json({ ok: false, errors: [{ field: 'id', cause: 'invalid', value: null, message: 'validation.id' }] }, { status: 400 })
  const id = post.output
  const done = { ok: true as const, intent: intent.output, errors: [] as ErrorItem[] }
  const answer = await apiResult(async () => {
    if (intent.output === 'pin') await api.feed.post[':id'].pin.$post({ param: { id } })
    else if (intent.output === 'unpin') await api.feed.post[':id'].unpin.$post({ param: { id } })
    else if (intent.output === 'approve') await api.feed.post[':id'].approve.$post({ param: { id } })
    else await api.feed.post[':id'].$delete({ param: { id } })
    return done
  })
  return resourceResponse(answer)
}
