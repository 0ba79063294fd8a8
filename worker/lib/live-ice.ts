import { iceServers } from '#shared/schemas/realm-settings'
import { getRealmRtc } from '../db/realm-rtc'

/**
 * The realm's STUN/TURN servers as `RTCIceServer`s (issue 20), handed to the browser with every live ticket (channel,
 * guest, room) for the conference mesh; empty without servers (host candidates: one machine or one network). A TURN
 * credential given this way is readable by every participant — the price of static TURN credentials.
 */
export async function liveIceServers(db: D1Database, realm: string) {
  return iceServers(await getRealmRtc(db, realm))
}
