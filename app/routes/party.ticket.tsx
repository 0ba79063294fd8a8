import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { GuestJoin } from '#shared/schemas/channel-live'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiFor, requireUser } from '~/server/auth.server'
import { participantApi } from '~/server/mobile-session.server'
import { mintTicket } from '~/server/party.server'

const Room = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))
const Query = v.variant('party', [
  v.object({ party: v.literal('presence') }),
  /** A channel's room: the signed-in user's ticket, or a guest's (`guest` = the name shown) on a public channel. */
  v.object({ party: v.literal('channel'), room: Room, guest: v.optional(GuestJoin.entries.name) }),
])

const noStore = { 'Cache-Control': 'no-store' }

/**
 * GET /party/ticket?party=presence: a fresh ticket for the realm's room of the presence party; `party=channel&room=`
 * a channel's ticket minted by the realm API (`POST /api/channel/live/{id}/ticket` as the console session, else the
 * mobile-web one; or `…/guest` with `guest=<name>`, no session needed). Clients fetch one before each (re)connection: tickets live a minute.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const parsed = v.safeParse(Query, Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) return Response.json({ errors: [{ field: 'party', cause: 'invalid', value: null, message: 'Unknown party.' }] }, { status: 400 })
  const q = parsed.output
  if (q.party === 'channel') {
    const param = { id: q.room }
    if (q.guest !== undefined) {
      const api = await apiFor(request, context)
      const answer = await orErrorResponse(apiData(api.channel.live[':id'].guest.$post({ param, json: { name: q.guest } })))
      return Response.json(answer, { headers: noStore })
    }
    // The console session, else a student's mobile-web session (the participant view's own sign-in).
    const api = await participantApi(request, context)
    const answer = await orErrorResponse(apiData(api.channel.live[':id'].ticket.$post({ param })))
    return Response.json(answer, { headers: noStore })
  }
  const { user } = await requireUser(request, context)
  const ticket = await mintTicket(context, user, q.party, user.realm)
  if (!ticket)
    return Response.json({ errors: [{ field: '', cause: 'unavailable', value: null, message: 'Live features are not configured.' }] }, { status: 503 })
  return Response.json({ ticket, host: context.cloudflare.env.PARTYKIT_HOST, room: user.realm }, { headers: noStore })
}
