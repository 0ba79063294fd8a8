import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { requireUser } from '~/server/auth.server'
import { walletBalance } from '~/server/wallet.server'

/**
 * GET /wallet: `{ points }` of the signed-in user's wallet (null without the ledger or a session), read by the top
 * bar so the balance follows movements made elsewhere (a transfer received, a confirmed purchase) without a reload.
 * Never an error: a poll must not replace the page with an error screen.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const headers = { 'Cache-Control': 'no-store' }
  try {
    const { user, realm, api } = await requireUser(request, context)
    return Response.json({ points: await walletBalance(api, realm, user.nick) }, { headers })
  } catch (err) {
    if (err instanceof Response) return Response.json({ points: null }, { headers })
    throw err
  }
}
