import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { NotAvailable } from '~/components/shell/not-available'
import { RouteError } from '~/components/shell/route-error'
import { matchRoute } from '#shared/manifest'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'app.name' }

function entryOf(request: Request) {
  const entry = matchRoute(new URL(request.url).pathname)
  if (!entry || entry.public) throw new Response(null, { status: 404 })
  return entry
}

/** Every manifest route without its own screen yet: the real guard, then the not-available-yet state. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const entry = entryOf(request)
  await requireRoute(request, context, entry.id)
  return { routeId: entry.id, title: entry.title }
}

/** Nothing can be submitted to a screen that does not exist yet; the guard still answers first. */
export async function action({ request, context }: ActionFunctionArgs) {
  const entry = entryOf(request)
  await requireRoute(request, context, entry.id)
  throw new Response(null, { status: 405 })
}

export default function NotAvailableRoute() {
  const { routeId } = useLoaderData<typeof loader>()
  return <NotAvailable routeId={routeId} />
}

export const ErrorBoundary = RouteError
