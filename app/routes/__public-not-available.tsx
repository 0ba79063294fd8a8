import { useLoaderData } from '@remix-run/react'
import { NotAvailable } from '~/components/shell/not-available'

/** Public route of the manifest without its screen yet (seed 000 §2.3): works without a session. */
export default function PublicNotAvailable() {
  const { routeId } = useLoaderData<{ routeId: string }>()
  return <NotAvailable routeId={routeId} standalone />
}
