import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { adaptKbps, LOSS_CHECK_MS, LOSS_FLOOR_KBPS, lossBetween, outboundCounts, UNCAPPED_KBPS } from '~/components/live/bitrate-adapt'
import { Mesh } from '~/components/live/mesh'

/**
 * "Bitrate reduction on loss" (issue 20, the channel's `bitrate_reduction` mode): the pure rule
 * (app/components/live/bitrate-adapt.ts) and the mesh applying it per peer with `setParameters`, driven by a stand-in
 * RTCPeerConnection whose `getStats()` reports the loss the test sets (a real network's loss cannot be made here).
 */

describe('the loss rule', () => {
  it('reads packets sent and packets the receiver reports lost from the statistics', () => {
    const counts = outboundCounts([
      { type: 'outbound-rtp', packetsSent: 300 },
      { type: 'outbound-rtp', packetsSent: 100 },
      { type: 'remote-inbound-rtp', packetsLost: 12 },
      { type: 'remote-inbound-rtp', packetsLost: -1 },
      { type: 'inbound-rtp', packetsLost: 99 },
    ])
    expect(counts).toEqual({ sent: 400, lost: 12 })
  })

  it('judges loss over a window only with enough packets sent', () => {
    expect(lossBetween({ sent: 0, lost: 0 }, { sent: 90, lost: 10 })).toBeCloseTo(0.1)
    expect(lossBetween({ sent: 100, lost: 10 }, { sent: 130, lost: 20 })).toBeNull()
    expect(lossBetween({ sent: 100, lost: 10 }, { sent: 400, lost: 5 })).toBeNull()
  })

  it('lowers at 10 % loss, holds in between, raises back once loss is under 2 %, up to the cap', () => {
    expect(adaptKbps(0, 1000, 0.1)).toBe(700)
    expect(adaptKbps(700, 1000, 0.3)).toBe(490)
    expect(adaptKbps(490, 1000, 0.05)).toBe(490)
    expect(adaptKbps(490, 1000, null)).toBe(490)
    expect(adaptKbps(490, 1000, 0.01)).toBe(613)
    expect(adaptKbps(900, 1000, 0)).toBe(0)
    expect(adaptKbps(0, 1000, 0)).toBe(0)
    expect(adaptKbps(120, 1000, 0.5)).toBe(LOSS_FLOOR_KBPS)
    expect(adaptKbps(0, 0, 0.2)).toBe(Math.round(UNCAPPED_KBPS * 0.7))
    expect(adaptKbps(2400, 0, 0)).toBe(0)
  })
})

// ---------------------------------------------------------------- the mesh, with a stand-in peer connection

class FakeTrack {
  onended: (() => void) | null = null
  constructor(readonly kind: 'audio' | 'video') {}
}
class FakeStream {
  getTracks() {
    return []
  }
  addTrack() {}
  removeTrack() {}
}
const stats = { sent: 0, lost: 0 }
class FakePc {
  signalingState = 'stable'
  connectionState = 'connected'
  remoteDescription = null
  localDescription = null
  onnegotiationneeded: (() => void) | null = null
  onicecandidate: unknown = null
  ontrack: unknown = null
  onsignalingstatechange: unknown = null
  onconnectionstatechange: unknown = null
  senders: { track: FakeTrack; maxBitrate?: number }[] = []
  addTransceiver(track: FakeTrack, init: { direction: string }) {
    const state: { track: FakeTrack; maxBitrate?: number } = { track }
    this.senders.push(state)
    return {
      direction: init.direction,
      sender: {
        get track() {
          return state.track
        },
        replaceTrack: async () => undefined,
        getParameters: () => ({ encodings: [{ maxBitrate: state.maxBitrate }] }),
        setParameters: async (p: { encodings: { maxBitrate?: number }[] }) => {
          state.maxBitrate = p.encodings[0].maxBitrate
        },
      },
    }
  }
  async getStats() {
    return new Map([
      ['o', { type: 'outbound-rtp', packetsSent: stats.sent }],
      ['r', { type: 'remote-inbound-rtp', packetsLost: stats.lost }],
    ])
  }
  close() {}
}

describe('the mesh under loss', () => {
  const pcs: FakePc[] = []
  beforeEach(() => {
    vi.useFakeTimers()
    stats.sent = 0
    stats.lost = 0
    vi.stubGlobal('MediaStream', FakeStream)
    vi.stubGlobal(
      'RTCPeerConnection',
      class extends FakePc {
        constructor() {
          super()
          pcs.push(this)
        }
      },
    )
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
    pcs.length = 0
  })

  /** One check window: `sent` packets go out, `lost` of them reported lost. */
  const window = async (sent: number, lost: number) => {
    stats.sent += sent
    stats.lost += lost
    await vi.advanceTimersByTimeAsync(LOSS_CHECK_MS)
  }

  it("lowers a peer's senders while it reports loss and raises them back to the cap once it clears; off restores the cap", async () => {
    const mesh = new Mesh(
      'ana',
      () => undefined,
      () => undefined,
    )
    mesh.setMaxKbps(1000)
    const tracks = { stream: new FakeStream() as unknown as MediaStream, audio: new FakeTrack('audio'), video: new FakeTrack('video') }
    mesh.setLocal(tracks as never, ['ana', 'bia'])
    await vi.advanceTimersByTimeAsync(0)
    const pc = pcs[0]
    const caps = () => pc.senders.map((s) => s.maxBitrate)
    expect(caps()).toEqual([1_000_000, 1_000_000])

    // Off by default: loss changes nothing.
    await window(200, 100)
    await window(200, 100)
    expect(caps()).toEqual([1_000_000, 1_000_000])

    mesh.setReduceOnLoss(true)
    await window(200, 0) // the first reading
    await window(180, 20) // 10 % lost
    expect(mesh.bitrateFor('bia')).toBe(700)
    expect(caps()).toEqual([700_000, 700_000])
    await window(150, 50)
    expect(caps()).toEqual([490_000, 490_000])
    await window(200, 10) // 5 %: holds
    expect(caps()).toEqual([490_000, 490_000])
    await window(10, 10) // too few packets to judge
    expect(caps()).toEqual([490_000, 490_000])
    await window(200, 0)
    expect(caps()).toEqual([613_000, 613_000])
    await window(200, 0)
    await window(200, 0)
    expect(caps()).toEqual([958_000, 958_000])
    await window(200, 0)
    expect(mesh.bitrateFor('bia')).toBe(1000)
    expect(caps()).toEqual([1_000_000, 1_000_000])

    await window(100, 100)
    expect(caps()).toEqual([700_000, 700_000])
    mesh.setReduceOnLoss(false)
    await vi.advanceTimersByTimeAsync(0)
    expect(caps()).toEqual([1_000_000, 1_000_000])
    mesh.close()
  })
})
