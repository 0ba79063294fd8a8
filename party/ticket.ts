import { base64UrlToBytes, bytesToBase64Url, hmacSign, hmacVerify } from '../worker/lib/crypto'

/**
 * A short-lived, signed permission to join one room of one party. Minted by a Remix loader for a signed-in user,
 * checked in the party's `onBeforeConnect`; the secret is shared by the Worker and the PartyKit server.
 */
export interface Ticket {
  party: string
  room: string
  realm: string
  nick: string
  name: string
  /**
   * The holder's role inside the room, where the party has roles (the channel party: the member's channel permission,
   * `participant` for a signed-in non-member, `guest`); the party re-reads members' permissions from the realm API.
   */
  role?: string
  /** Expiry, epoch seconds. */
  exp: number
}

export const TICKET_TTL_SECONDS = 60

export async function signTicket(secret: string, claims: Omit<Ticket, 'exp'>, ttlSeconds = TICKET_TTL_SECONDS): Promise<string> {
  const ticket: Ticket = { ...claims, exp: Math.floor(Date.now() / 1000) + ttlSeconds }
  const payload = bytesToBase64Url(new TextEncoder().encode(JSON.stringify(ticket)))
  return `${payload}.${await hmacSign(secret, payload)}`
}

/** The ticket's claims when its signature holds, it has not expired and it names this party and room. */
export async function verifyTicket(secret: string, token: string | null, party: string, room: string): Promise<Ticket | null> {
  if (!secret || !token) return null
  const [payload, signature] = token.split('.')
  if (!payload || !signature || !(await hmacVerify(secret, payload, signature))) return null
  let ticket: Ticket
  try {
    ticket = JSON.parse(new TextDecoder().decode(base64UrlToBytes(payload))) as Ticket
  } catch {
    return null
  }
  if (ticket.party !== party || ticket.room !== room) return null
  if (typeof ticket.exp !== 'number' || ticket.exp < Math.floor(Date.now() / 1000)) return null
  return ticket
}
