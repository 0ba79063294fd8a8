/**
 * "Bitrate reduction on loss" (issue 20; the channel's `bitrate_reduction` mode, `settings.reduce_on_loss`): every
 * LOSS_CHECK_MS the mesh reads each peer connection's outbound statistics (`getStats()`: packets sent in `outbound-rtp`,
 * packets the peer reports lost in `remote-inbound-rtp`), and for that peer's senders:
 * - loss at or above LOSS_HIGH (10 %) over the window lowers the sender's `maxBitrate` to LOSS_STEP_DOWN (70 %) of what
 *   it was (starting from the room's cap, or UNCAPPED_KBPS without one), never below LOSS_FLOOR_KBPS;
 * - loss at or below LOSS_CLEAR (2 %) raises a lowered bitrate by LOSS_STEP_UP (25 %) until it reaches the cap again;
 * - in between, or with fewer than LOSS_MIN_PACKETS sent in the window (too few to judge), it stays.
 * Pure functions, so they are tested without a browser (tests/components/bitrate-adapt.test.ts).
 */
export const LOSS_CHECK_MS = 2_000
export const LOSS_HIGH = 0.1
export const LOSS_CLEAR = 0.02
export const LOSS_STEP_DOWN = 0.7
export const LOSS_STEP_UP = 1.25
export const LOSS_FLOOR_KBPS = 100
export const LOSS_MIN_PACKETS = 50
/** Where the reduction starts when the room caps nothing. */
export const UNCAPPED_KBPS = 2_500

export interface OutboundCounts {
  sent: number
  lost: number
}

/** Packets sent and reported lost by the receiver, summed over a peer connection's statistics reports. */
export function outboundCounts(reports: Iterable<{ type: string; packetsSent?: number; packetsLost?: number }>): OutboundCounts {
  const out = { sent: 0, lost: 0 }
  for (const r of reports) {
    if (r.type === 'outbound-rtp') out.sent += r.packetsSent ?? 0
    else if (r.type === 'remote-inbound-rtp') out.lost += Math.max(0, r.packetsLost ?? 0)
  }
  return out
}

/** The fraction of packets lost between two readings, or null when too few were sent to judge (or counters restarted). */
export function lossBetween(before: OutboundCounts, now: OutboundCounts): number | null {
  const sent = now.sent - before.sent
  const lost = now.lost - before.lost
  if (sent < LOSS_MIN_PACKETS || lost < 0) return null
  return Math.min(1, lost / (sent + lost))
}

/**
 * The next bitrate for a peer's senders, kbps: `current` is the reduced bitrate in force (0: not reduced, the cap
 * applies), `cap` the room's cap (0: none), `loss` the window's loss (null: unknown). Answers 0 when the cap applies again.
 */
export function adaptKbps(current: number, cap: number, loss: number | null): number {
  if (loss === null) return current
  const base = current > 0 ? current : cap > 0 ? cap : UNCAPPED_KBPS
  if (loss >= LOSS_HIGH) return Math.max(LOSS_FLOOR_KBPS, Math.min(base, Math.round(base * LOSS_STEP_DOWN)))
  if (loss <= LOSS_CLEAR && current > 0) {
    const up = Math.round(current * LOSS_STEP_UP)
    const top = cap > 0 ? cap : UNCAPPED_KBPS
    return up >= top ? 0 : up
  }
  return current
}
