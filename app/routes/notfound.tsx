import { data } from '@remix-run/cloudflare'
import { NotFound } from '~/components/shell/not-found'

export const handle = { title: 'notfound.title' }

/** Where users are sent when they lack a route's permission or realm flag (seed 000 §2.2). */
export const loader = () => data(null, { status: 404 })

export default function NotFoundRoute() {
  return <NotFound />
}
