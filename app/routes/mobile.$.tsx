import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { NotAvailable } from '~/components/not-available'
import { requirePublicRoute } from '~/server/public-route.server'

/** Public route of the manifest without its screen yet (seed 000 §2.3): works without a session. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const entry = await requirePublicRoute(request, context)
  return { routeId: entry.id }
}

export default function PublicNotAvailable() {
  const { routeId } = useLoaderData<typeof loader>()
  return <NotAvailable routeId={routeId} standalone />
}
