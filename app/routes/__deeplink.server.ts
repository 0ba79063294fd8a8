import { data, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { visitorPlatform } from '#shared/deeplink'
import { Id } from '#shared/schemas/tms/common'
import { apiData, orNull } from '~/server/api.server'
import { apiFor } from '~/server/auth.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'

/**
 * The conference deep-link page (`/deeplink?channel={id}`, or `?room={id}` for a console room (issue 20), and `/deeplink/app`, which also tries the app at once):
 * the channel and the realm's links from the public API, the visitor's platform from the user agent (which store to
 * offer). No channel named answers the `missing` state (the page's own address, 200), an unknown one `not_found` (404).
 */
export async function deeplinkLoader({ request, context }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const platform = visitorPlatform(request.headers.get('user-agent'))
  const params = new URL(request.url).searchParams
  const channel = v.safeParse(Id, params.get('channel'))
  // A console room's shared link (issue 20): `?room={id}`, when no channel is named.
  const room = channel.success ? null : v.safeParse(Id, params.get('room'))
  const kind = room?.success ? ('room' as const) : ('channel' as const)
  const realm = await getRealmContext(request, context)
  if (!channel.success && !room?.success) return data({ state: 'missing' as const, kind, platform, target: null }, { headers: { 'Cache-Control': 'no-store' } })
  const api = await apiFor(request, context, realm)
  const target = !realm.code
    ? null
    : channel.success
      ? await orNull(apiData(api.deeplink.channel[':id'].$get({ param: { id: channel.output } })))
      : room?.success
        ? await orNull(apiData(api.deeplink.room[':id'].$get({ param: { id: room.output } })))
        : null
  if (!target) return data({ state: 'not_found' as const, kind, platform, target: null }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
  return data({ state: 'found' as const, kind, platform, target }, { headers: { 'Cache-Control': 'no-store' } })
}
