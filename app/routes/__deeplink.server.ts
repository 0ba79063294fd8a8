import { data, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { visitorPlatform } from '#shared/deeplink'
import { Id } from '#shared/schemas/tms/common'
import { apiData, orNull } from '~/server/api.server'
import { apiFor } from '~/server/auth.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'

/**
 * The conference deep-link page (`/deeplink?channel={id}`, and `/deeplink/app`, which also tries the app at once):
 * the channel and the realm's links from the public API, the visitor's platform from the user agent (which store to
 * offer). No channel named answers the `missing` state (the page's own address, 200), an unknown one `not_found` (404).
 */
export async function deeplinkLoader({ request, context }: LoaderFunctionArgs) {
  await requirePublicRoute(request, context)
  const platform = visitorPlatform(request.headers.get('user-agent'))
  const channel = v.safeParse(Id, new URL(request.url).searchParams.get('channel'))
  const realm = await getRealmContext(request, context)
  if (!channel.success) return data({ state: 'missing' as const, platform, target: null }, { headers: { 'Cache-Control': 'no-store' } })
  const api = await apiFor(request, context, realm)
  const target = realm.code ? await orNull(apiData(api.deeplink.channel[':id'].$get({ param: { id: channel.output } }))) : null
  if (!target) return data({ state: 'not_found' as const, platform, target: null }, { status: 404, headers: { 'Cache-Control': 'no-store' } })
  return data({ state: 'found' as const, platform, target }, { headers: { 'Cache-Control': 'no-store' } })
}
