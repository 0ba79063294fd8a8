import { redirect, type ActionFunctionArgs } from '@remix-run/cloudflare'
import { apiFor, getToken } from '~/server/auth.server'
import { sessionCookie } from '~/server/cookies.server'

export const loader = () => redirect('/')

/** Sign out: revokes the token on the server (DELETE /api/device), clears the cookie and returns to `/`. */
export async function action({ request, context }: ActionFunctionArgs) {
  if (await getToken(request)) {
    const api = await apiFor(request, context)
    await api.device.$delete().catch(() => undefined)
  }
  throw redirect('/', { headers: { 'Set-Cookie': await sessionCookie(request).serialize('', { maxAge: 0 }) } })
}
