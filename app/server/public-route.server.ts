import type { AppLoadContext } from '@remix-run/cloudflare'
import { can } from '#shared/access'
import { matchRoute } from '#shared/manifest'
import { getRealmContext } from './realm.server'

/** Guard of a public route (seed 000 §2.3): no session, but its realm flags (e.g. persona_enabled) must hold. */
export async function requirePublicRoute(request: Request, context: AppLoadContext) {
  const entry = matchRoute(new URL(request.url).pathname)
  if (!entry?.public) throw new Response(null, { status: 404 })
  if (entry.access.flags?.length) {
    const realm = await getRealmContext(request, context)
    if (!can({}, realm.config, { flags: entry.access.flags })) throw new Response(null, { status: 404 })
  }
  return entry
}
