import { controlParty, type LiveControl } from '../../party/channel-protocol'
import { signTicket } from '../../party/ticket'

const CONTROL_TIMEOUT_MS = 3_000

/** The party server's base URL from PARTYKIT_HOST (plain http on this machine, https deployed). */
function partyBase(host: string): string {
  return `${/^(localhost|127\.|\[::1\])/.test(host) ? 'http' : 'https'}://${host}`
}

/**
 * Ends the live sessions of `rooms` of `party` (the room API, when a room or its parent is closed): each room's party
 * is told with a control ticket (`<party>-control`, that room, the caller's realm, signed with PARTY_SECRET) and tells
 * everyone `ended` and closes them. Best effort, in parallel, 3 s each: a party that cannot be reached ends the
 * session itself at its next renewal (it re-reads the room and finds it closed). Answers how many parties took it.
 */
export async function endLiveRooms(
  env: { PARTY_SECRET?: string; PARTYKIT_HOST?: string },
  realm: string,
  party: string,
  rooms: readonly string[],
  by: string,
): Promise<number> {
  const secret = env.PARTY_SECRET
  const host = env.PARTYKIT_HOST
  if (!secret || !host || !rooms.length) return 0
  const body: LiveControl = { action: 'end', by }
  const results = await Promise.allSettled(
    rooms.map(async (room) => {
      const ticket = await signTicket(secret, { party: controlParty(party), room, realm, nick: by, name: '' })
      const res = await fetch(`${partyBase(host)}/parties/${party}/${encodeURIComponent(room)}`, {
        method: 'POST',
        headers: { 'x-party-ticket': ticket, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
      })
      await res.body?.cancel()
      return res.ok
    }),
  )
  return results.filter((r) => r.status === 'fulfilled' && r.value).length
}
