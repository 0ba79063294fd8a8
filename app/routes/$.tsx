import { data } from '@remix-run/cloudflare'
import { NotFound } from '~/components/not-found'

export const handle = { title: 'notfound.title' }

/** Unmatched paths show the 404 page. */
export const loader = () => data(null, { status: 404 })

export default function UnmatchedRoute() {
  return <NotFound />
}
