import { redirect, type AppLoadContext } from '@remix-run/cloudflare'
import { routeById } from '#shared/manifest'
import { requireRoute } from '~/server/auth.server'

/**
 * A manifest route that is another address of a screen (`redirectTo`): guarded as its entry says, then redirected
 * (302) to the target with the path's parameters and the query kept.
 */
export async function redirectRoute(request: Request, context: AppLoadContext, id: string, params: Record<string, string | undefined> = {}) {
  await requireRoute(request, context, id)
  const target = routeById(id).redirectTo
  if (!target) throw new Error(`${id} has no redirectTo`)
  const path = target.replace(/:([A-Za-z_]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
  return redirect(`${path}${new URL(request.url).search}`, 302)
}
