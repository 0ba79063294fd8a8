import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requirePublicRoute } from '~/server/public-route.server'

/** The public route's guard (realm flags such as persona_enabled), then the not-available state. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const entry = await requirePublicRoute(request, context)
  return { routeId: entry.id }
}
