import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { redirectRoute } from './__redirect.server'

/** `realm/category` (seed 000 §2.2) is the room category tree of `room/category` (seed 002): a redirect there. */
export const loader = ({ request, context, params }: LoaderFunctionArgs) => redirectRoute(request, context, 'realm.category.edit', params)
