import { TICKET_TTL_SECONDS } from '../../party/ticket'
import { endLease, renewLeases, takeLease } from '../db/live-presence'
import { roomForOpen } from '../db/rooms'
import { apiError } from './errors'

/** How long a join holds its place without being renewed (a live client re-joins, or its party renews, sooner). */
export const LIVE_LEASE_SECONDS = 120
/** How often a party renews the leases of who is present in it (well inside LIVE_LEASE_SECONDS). */
export const LIVE_RENEW_SECONDS = 60

export interface LiveJoin {
  /** The party (`channel`, `room`, …) and the live room's id in it. */
  party: string
  room: string
  nick: string
  /** Also apply the realm's `max_users_per_room` to this live room (rooms and channels: true). */
  perRoom?: boolean
  /** Always admitted, and counted (the channel's owner and admins, as the party exempts them from its user limit). */
  exempt?: boolean
  leaseSeconds?: number
  now?: Date
}

/**
 * The realm limits at join time (seed 002 realm limits), for every live join path (channel and room parties mint
 * their tickets after it): takes or renews `nick`'s place in the live room for `leaseSeconds`, or throws 422 `limit`
 * — `validation.live.max_environment` (value: the realm's `max_users_per_environment`) when the realm already has
 * that many distinct users live and this one is not among them, `validation.live.max_room` (value:
 * `max_users_per_room`) when the live room is full and `perRoom` is set. A user live in several rooms counts once
 * for the environment; a re-join (renewal) is always admitted. One D1 batch, the check and the write in one
 * statement. Answers when the place runs out.
 */
export async function admitLive(db: D1Database, realm: string, join: LiveJoin): Promise<{ expires_at: string }> {
  const now = join.now ?? new Date()
  const expires = new Date(now.getTime() + (join.leaseSeconds ?? LIVE_LEASE_SECONDS) * 1000).toISOString()
  const at = now.toISOString()
  const r = await takeLease(db, realm, {
    party: join.party,
    room: join.room,
    nick: join.nick,
    now: at,
    expires,
    perRoom: join.perRoom ?? true,
    exempt: join.exempt ?? false,
  })
  if (!r.admitted) {
    if (r.env.max >= 0 && r.env.n >= r.env.max) throw apiError(422, 'limit', 'validation.live.max_environment', 'room', r.env.max)
    throw apiError(422, 'limit', 'validation.live.max_room', 'room', r.room.max)
  }
  return { expires_at: expires }
}

/** Frees the place of `nick` (or of each of several nicks) in the live room (the party's leave), and drops the realm's leases that ran out. */
export async function leaveLive(
  db: D1Database,
  realm: string,
  leave: { party: string; room: string; nick: string | readonly string[]; now?: Date },
): Promise<void> {
  const nicks = typeof leave.nick === 'string' ? [leave.nick] : leave.nick
  await endLease(db, realm, { party: leave.party, room: leave.room, nicks, now: (leave.now ?? new Date()).toISOString() })
}

/**
 * The party's periodic renewal (every LIVE_RENEW_SECONDS while anyone is present): the leases of the `present` nicks
 * run LIVE_LEASE_SECONDS again, whatever the limits (they were applied at ticket time), and the live room's leases
 * neither taken nor renewed within the last LIVE_LEASE_SECONDS − TICKET_TTL_SECONDS (a ticket no longer usable and
 * never used, a leave the party could not report) end. A crashed party renews nothing: its leases run out alone.
 */
export async function renewLive(db: D1Database, realm: string, renew: { party: string; room: string; present: readonly string[]; now?: Date }): Promise<void> {
  const now = renew.now ?? new Date()
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString()
  await renewLeases(db, realm, {
    party: renew.party,
    room: renew.room,
    nicks: renew.present,
    now: now.toISOString(),
    expires: at(LIVE_LEASE_SECONDS),
    stale: at(LIVE_LEASE_SECONDS - TICKET_TTL_SECONDS),
  })
}

/**
 * Joining a console room live (party `room`): the room must exist in the realm (404), be open (409 `closed`) and
 * inside its activity window (409 `not_active`, value the window's edge), then `admitLive` applies the realm limits
 * (`exempt`: the room's admins — staff holding `room_room_edit` — pass them and count, as the party lets them in).
 */
export async function admitRoomJoin(
  db: D1Database,
  realm: string,
  roomId: string,
  nick: string,
  now = new Date(),
  exempt = false,
): Promise<{ expires_at: string }> {
  const room = await roomForOpen(db, realm, roomId)
  if (!room) throw apiError(404, 'not_found', `Room ${roomId} was not found.`, 'room', roomId)
  if (room.closed_at !== null) throw apiError(409, 'closed', 'validation.room.closed', 'room', roomId)
  const at = now.toISOString()
  if (room.enable_at !== null && at < room.enable_at) throw apiError(409, 'not_active', 'validation.room.not_yet_active', 'room', room.enable_at)
  if (room.disable_at !== null && at >= room.disable_at) throw apiError(409, 'not_active', 'validation.room.no_longer_active', 'room', room.disable_at)
  return admitLive(db, realm, { party: 'room', room: room.id, nick, now, exempt })
}
