import type { AppLoadContext } from '@remix-run/cloudflare'
import { signTicket } from '../../party/ticket'
import type { SessionUser } from './auth.server'

/** A short-lived ticket to join `room` of `party`, or null when live features are not configured (no secret). */
export async function mintTicket(context: AppLoadContext, user: SessionUser, party: string, room: string): Promise<string | null> {
  const secret = context.cloudflare.env.PARTY_SECRET
  if (!secret) return null
  return signTicket(secret, { party, room, realm: user.realm, nick: user.nick, name: user.name })
}
