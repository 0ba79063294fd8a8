import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireRoute } from '~/server/auth.server'

/**
 * `realm/category` (seed 000 §2.2 lists it under realm administration) is the room category tree, which lives at
 * `room/category` (seed 002): one screen, one sidebar entry; this address answers a redirect there.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireRoute(request, context, 'realm.category.edit')
  return redirect(`/room/category/edit/${encodeURIComponent(params.categoryId ?? '')}${new URL(request.url).search}`, 302)
}
