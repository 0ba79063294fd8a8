import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChannelClientMessage, ChannelServerMessage } from '../../party/channel-protocol'
import { SfuLink } from '~/components/live/sfu-link'

/**
 * The browser's side of the SFU path (issue 20; app/components/live/sfu-link.ts) — its signalling, with a stand-in
 * RTCPeerConnection (the DOM here has none, and the local SFU server speaks the API, not media; real media through the
 * SFU runs in production only): what it pushes (mids and kinds of the media it sends), that it applies the SFU's
 * answer, pulls each transmitter presence shows, answers the SFU's offer with `sfu_renegotiate` and shows the offered
 * tracks under the transmitter they belong to; a refused push is taken back; a transmitter who stops is no longer shown.
 */

class FakeTrack {
  onended: (() => void) | null = null
  constructor(readonly kind: 'audio' | 'video') {}
}
class FakeStream {
  private tracks: FakeTrack[]
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = [...tracks]
  }
  getTracks() {
    return [...this.tracks]
  }
  addTrack(t: FakeTrack) {
    this.tracks.push(t)
  }
  removeTrack(t: FakeTrack) {
    this.tracks = this.tracks.filter((x) => x !== t)
  }
}
class FakeTransceiver {
  mid: string | null = null
  sender: {
    track: FakeTrack | null
    replaceTrack(t: FakeTrack | null): Promise<void>
    getParameters(): { encodings: { maxBitrate?: number }[] }
    setParameters(): Promise<void>
  }
  constructor(
    track: FakeTrack | null,
    public direction: string,
  ) {
    const sender = {
      track,
      replaceTrack: async (t: FakeTrack | null) => {
        sender.track = t
      },
      getParameters: () => ({ encodings: [] }),
      setParameters: async () => undefined,
    }
    this.sender = sender
  }
}
const pcs: FakePc[] = []
class FakePc {
  signalingState = 'stable'
  localDescription: { type: string; sdp: string } | null = null
  remote: { type: string; sdp: string }[] = []
  transceivers: FakeTransceiver[] = []
  ontrack: ((e: { track: FakeTrack; transceiver: FakeTransceiver }) => void) | null = null
  onsignalingstatechange: (() => void) | null = null
  closed = false
  private nextMid = 0
  constructor() {
    pcs.push(this)
  }
  addTransceiver(track: FakeTrack, init: { direction: string }) {
    const t = new FakeTransceiver(track, init.direction)
    this.transceivers.push(t)
    return t
  }
  async createOffer() {
    return { type: 'offer', sdp: `v=0\r\n${this.transceivers.map((t) => `m=${t.sender.track?.kind ?? 'video'} 9 x\r\na=${t.direction}\r\n`).join('')}` }
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'v=0\r\nanswer\r\n' }
  }
  async setLocalDescription(d: { type: string; sdp?: string }) {
    if (d.type === 'rollback') {
      this.signalingState = 'stable'
      this.localDescription = null
      return
    }
    for (const t of this.transceivers) if (t.mid === null) t.mid = String(this.nextMid++)
    this.localDescription = { type: d.type, sdp: d.sdp ?? '' }
    this.signalingState = d.type === 'offer' ? 'have-local-offer' : 'stable'
  }
  async setRemoteDescription(d: { type: string; sdp: string }) {
    this.remote.push(d)
    if (d.type === 'offer') {
      this.signalingState = 'have-remote-offer'
      // The SFU's offer brings one receiving transceiver per `m=` line with its mid.
      for (const m of d.sdp.matchAll(/^m=(audio|video).*\r?\na=mid:(\d+)/gm)) {
        const t = new FakeTransceiver(null, 'recvonly')
        t.mid = m[2]
        this.transceivers.push(t)
        this.ontrack?.({ track: new FakeTrack(m[1] as 'audio' | 'video'), transceiver: t })
      }
    } else this.signalingState = 'stable'
  }
  close() {
    this.closed = true
  }
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve()
}
const pushed = (sent: ChannelClientMessage[]) => sent.filter((m): m is Extract<ChannelClientMessage, { type: 'sfu_push' }> => m.type === 'sfu_push')

describe('SFU link (browser side)', () => {
  let sent: ChannelClientMessage[]
  let remotes: Map<string, FakeStream | null>
  let link: SfuLink
  beforeEach(() => {
    pcs.length = 0
    vi.stubGlobal('RTCPeerConnection', FakePc)
    vi.stubGlobal('MediaStream', FakeStream)
    sent = []
    remotes = new Map()
    link = new SfuLink(
      'ana@demo',
      (m) => sent.push(m),
      (nick, stream) => remotes.set(nick, stream as unknown as FakeStream | null),
    )
  })
  afterEach(() => {
    link.close()
    vi.unstubAllGlobals()
  })

  it('pushes the media it sends (mids and kinds) and applies the SFU answer; stopping a medium does not push again', async () => {
    const audio = new FakeTrack('audio')
    const video = new FakeTrack('video')
    const stream = new FakeStream([audio, video])
    link.setLocal({ stream, audio, video } as never)
    await flush()
    const [push] = pushed(sent)
    expect(push.tracks).toEqual([
      { mid: '0', kind: 'audio' },
      { mid: '1', kind: 'video' },
    ])
    expect(push.sdp).toContain('a=sendonly')
    await link.handle({ type: 'sfu_pushed', sdp: 'v=0\r\nsfu answer\r\n', tracks: push.tracks })
    await flush()
    expect(pcs[0].remote).toEqual([{ type: 'answer', sdp: 'v=0\r\nsfu answer\r\n' }])
    // The microphone stops (a mute): emptied, no new push; it comes back as a fresh transceiver, pushed on its own.
    link.setLocal({ stream, audio: null, video } as never)
    await flush()
    expect(pushed(sent)).toHaveLength(1)
    expect(pcs[0].transceivers[0].sender.track).toBeNull()
    link.setLocal({ stream, audio, video } as never)
    await flush()
    expect(pushed(sent)[1].tracks).toEqual([{ mid: '2', kind: 'audio' }])
  })

  it('a refused push is taken back; the next change pushes again', async () => {
    const audio = new FakeTrack('audio')
    link.setLocal({ stream: new FakeStream([audio]), audio, video: null } as never)
    await flush()
    expect(pcs[0].signalingState).toBe('have-local-offer')
    link.rollback()
    await flush()
    expect(pcs[0].signalingState).toBe('stable')
    link.setLocal({ stream: new FakeStream([audio]), audio, video: null } as never)
    await flush()
    expect(pushed(sent)).toHaveLength(2)
  })

  it('pulls each transmitter, answers the SFU offer and shows its tracks under them; one who stops is no longer shown', async () => {
    link.setTransmitters([
      { nick: 'ana@demo', media: { audio: true, video: true } },
      { nick: 'bia@demo', media: { audio: true, video: true } },
      { nick: 'caio@demo' },
    ])
    await flush()
    expect(sent).toEqual([{ type: 'sfu_pull', from: 'bia@demo' }])
    const offer: ChannelServerMessage = {
      type: 'sfu_offer',
      from: 'bia@demo',
      sdp: 'v=0\r\nm=audio 9 x\r\na=mid:100\r\nm=video 9 x\r\na=mid:101\r\n',
      tracks: [
        { mid: '100', kind: 'audio' },
        { mid: '101', kind: 'video' },
      ],
    }
    await link.handle(offer)
    await flush()
    expect(sent[1]).toEqual({ type: 'sfu_renegotiate', sdp: 'v=0\r\nanswer\r\n' })
    expect(
      remotes
        .get('bia@demo')
        ?.getTracks()
        .map((t) => t.kind),
    ).toEqual(['audio', 'video'])
    // Her audio is closed (a mute): the tile keeps the video only, nothing is pulled again.
    link.setTransmitters([{ nick: 'bia@demo', media: { audio: false, video: true } }])
    await flush()
    expect(
      remotes
        .get('bia@demo')
        ?.getTracks()
        .map((t) => t.kind),
    ).toEqual(['video'])
    expect(sent.filter((m) => m.type === 'sfu_pull')).toHaveLength(1)
    // Her microphone opens again: pulled again. She stops: not shown.
    link.setTransmitters([{ nick: 'bia@demo', media: { audio: true, video: true } }])
    await flush()
    expect(sent.filter((m) => m.type === 'sfu_pull')).toHaveLength(2)
    link.setTransmitters([{ nick: 'bia@demo' }])
    expect(remotes.get('bia@demo')).toBeNull()
  })

  it('our reconnection starts over on a new connection: what we send is pushed again, transmitters pulled again', async () => {
    const video = new FakeTrack('video')
    link.setLocal({ stream: new FakeStream([video]), audio: null, video } as never)
    link.setTransmitters([{ nick: 'bia@demo', media: { audio: false, video: true } }])
    await flush()
    const [push] = pushed(sent)
    await link.handle({ type: 'sfu_pushed', sdp: 'v=0\r\n', tracks: push.tracks })
    await flush()
    sent.length = 0
    link.resetAll()
    await flush()
    expect(pcs[0].closed).toBe(true)
    expect(pcs).toHaveLength(2)
    expect(pushed(sent)).toHaveLength(1)
  })
})
