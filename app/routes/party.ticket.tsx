import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { requireUser } from '~/server/auth.server'
import { mintTicket } from '~/server/party.server'

const Query = v.object({ party: v.picklist(['presence']) })

/** GET /party/ticket?party=presence: a fresh ticket for the realm's room of a party, minted for the signed-in user. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(request, context)
  const parsed = v.safeParse(Query, Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) return Response.json({ errors: [{ field: 'party', cause: 'invalid', value: null, message: 'Unknown party.' }] }, { status: 400 })
  const ticket = await mintTicket(context, user, parsed.output.party, user.realm)
  if (!ticket)
    return Response.json({ errors: [{ field: '', cause: 'unavailable', value: null, message: 'Live features are not configured.' }] }, { status: 503 })
  return Response.json({ ticket, host: context.cloudflare.env.PARTYKIT_HOST, room: user.realm }, { headers: { 'Cache-Control': 'no-store' } })
}
