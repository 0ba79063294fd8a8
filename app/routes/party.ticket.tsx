import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { GuestJoin } from '#shared/schemas/channel-live'
import { ChatSessionStart } from '#shared/schemas/persona-chat'
import { PERSONA_CHAT_PARTY } from '../../party/persona-chat-protocol'
import { apiData, orErrorResponse } from '~/server/api.server'
import { apiFor, requireUser } from '~/server/auth.server'
import { participantApi } from '~/server/mobile-session.server'
import { mintTicket } from '~/server/party.server'
import { visitorApi } from '~/server/persona-chat.server'

const Room = v.pipe(v.string(), v.regex(/^[\w-]{1,64}$/))
const Query = v.variant('party', [
  v.object({ party: v.literal('presence') }),
  /** A channel's room: the signed-in user's ticket, or a guest's (`guest` = the name shown) on a public channel. */
  v.object({ party: v.literal('channel'), room: Room, guest: v.optional(GuestJoin.entries.name) }),
  /** A console room's (or breakout's) live room: the signed-in member's or staff's ticket (no guests). */
  v.object({ party: v.literal('room'), room: Room }),
  /** A persona chat session (`room` = the persona): the client's `session` resumed when it is still its own. */
  v.object({ party: v.literal(PERSONA_CHAT_PARTY), room: Room, ...ChatSessionStart.entries }),
  /** A running quiz's room (`room` = the quiz id): moderator or player as the realm API decides, or a guest player. */
  v.object({ party: v.literal('quiz'), room: Room, guest: v.optional(GuestJoin.entries.name), resume: v.optional(v.pipe(v.string(), v.maxLength(2000))) }),
  /** A running poll's room of the quiz party (`room` = the poll id), as the quiz's. */
  v.object({ party: v.literal('poll'), room: Room, guest: v.optional(GuestJoin.entries.name), resume: v.optional(v.pipe(v.string(), v.maxLength(2000))) }),
])

const noStore = { 'Cache-Control': 'no-store' }

/**
 * GET /party/ticket?party=presence: a fresh ticket for the realm's room of the presence party; `party=channel&room=`
 * a channel's ticket minted by the realm API (`POST /api/channel/live/{id}/ticket` as the console session, else the
 * mobile-web one; or `…/guest` with `guest=<name>`, no session needed); `party=room&room=` a console room's ticket
 * (`POST /api/room/live/{id}/ticket`, the same sessions); `party=personachat&room=<personaId>&session_id=` a persona
 * chat session's (`POST /api/personai/chat/{id}/session`). Clients fetch one before each (re)connection: tickets live a minute.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const parsed = v.safeParse(Query, Object.fromEntries(new URL(request.url).searchParams))
  if (!parsed.success) return Response.json({ errors: [{ field: 'party', cause: 'invalid', value: null, message: 'Unknown party.' }] }, { status: 400 })
  const q = parsed.output
  if (q.party === 'room') {
    const api = await participantApi(request, context)
    const answer = await orErrorResponse(apiData(api.room.live[':id'].ticket.$post({ param: { id: q.room } })))
    return Response.json(answer, { headers: noStore })
  }
  if (q.party === PERSONA_CHAT_PARTY) {
    // The console session, else the mobile-web one, else a guest (the API says when the persona needs a sign-in).
    const { api } = await visitorApi(request, context)
    const json = { session_id: q.session_id, language: q.language }
    const answer = await orErrorResponse(apiData(api.personai.chat[':personaId'].session.$post({ param: { personaId: q.room }, json })))
    return Response.json(answer, { headers: noStore })
  }
  if (q.party === 'quiz' || q.party === 'poll') {
    // A quiz's or a poll's room of the quiz party: a guest's ticket with a name, else the signed-in participant's.
    const param = { id: q.room }
    if (q.guest !== undefined) {
      const api = await apiFor(request, context)
      const json = { name: q.guest, ...(q.resume ? { resume: q.resume } : {}) }
      const call = q.party === 'poll' ? api.poll.live[':id'].guest.$post({ param, json }) : api.quiz.live[':id'].guest.$post({ param, json })
      return Response.json(await orErrorResponse(apiData(call)), { headers: noStore })
    }
    const api = await participantApi(request, context)
    const call = q.party === 'poll' ? api.poll.live[':id'].ticket.$post({ param }) : api.quiz.live[':id'].ticket.$post({ param })
    return Response.json(await orErrorResponse(apiData(call)), { headers: noStore })
  }
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
