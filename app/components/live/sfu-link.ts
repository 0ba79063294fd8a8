import type { ChannelClientMessage, ChannelServerMessage, LiveMember, SfuTrack } from '../../../party/channel-protocol'
import type { Kind, LocalTracks } from './mesh'

/**
 * The conference through the SFU (issue 20), once the party moved the room there (`settings.media_path: 'sfu'`): one
 * `RTCPeerConnection` to the SFU, whose HTTPS API the party speaks for us (README "The SFU switch").
 *
 * - Publishing: each medium we start sending gets a fresh `sendonly` transceiver; our offer goes out as `sfu_push`
 *   with the mids and kinds, and the SFU's answer comes back as `sfu_pushed`. A medium we stop is emptied (the party,
 *   told by `media`, closes it on the SFU); sending it again publishes a fresh transceiver.
 * - Receiving: every transmitter presence shows is pulled (`sfu_pull`); the SFU's offer (`sfu_offer`, naming which mid
 *   carries what) is answered with `sfu_renegotiate`, and its tracks are shown under that transmitter. A transmitter
 *   who starts sending another medium is pulled again.
 * - Negotiations run one at a time (the push's offer and the SFU's offers share the connection); one waits at most
 *   `SFU_WAIT_MS` for the party's answer, then gives up (the next change tries again).
 * - Our own reconnection (`resetAll`: the party gives the new connection a new SFU session) starts over; a transmitter
 *   who joined again (`reset`) is pulled again.
 *
 * The media path through a real SFU runs in production only (the local stand-in speaks the API, not media); the
 * signalling is tested in tests/components/sfu-link.test.ts.
 */
export const SFU_WAIT_MS = 10_000

type Pushed = Extract<ChannelServerMessage, { type: 'sfu_pushed' }>
type Offered = Extract<ChannelServerMessage, { type: 'sfu_offer' }>
type Waiter = { match: (m: ChannelServerMessage) => boolean; resolve: (m: ChannelServerMessage | null) => void }

const KINDS = ['audio', 'video'] as const

export class SfuLink {
  private pc: RTCPeerConnection
  private tx: Partial<Record<Kind, RTCRtpTransceiver>> = {}
  /** What the SFU has from us. */
  private published: Record<Kind, boolean> = { audio: false, video: false }
  private local: LocalTracks | null = null
  private maxKbps = 0
  private closed = false
  private queue: Promise<void> = Promise.resolve()
  private waiters: Waiter[] = []
  /** Whose media each receiving mid carries; the stream shown per transmitter; what we pulled from each. */
  private owners = new Map<string, string>()
  private streams = new Map<string, MediaStream>()
  private pulled = new Map<string, Record<Kind, boolean>>()
  private transmitters: Pick<LiveMember, 'nick' | 'media'>[] = []

  constructor(
    private readonly self: string,
    private readonly send: (m: ChannelClientMessage) => void,
    private readonly onRemote: (nick: string, stream: MediaStream | null) => void,
    private readonly iceServers: RTCIceServer[] = [],
  ) {
    this.pc = this.connect()
  }

  /** The connection to the SFU (for statistics). */
  connection(): RTCPeerConnection {
    return this.pc
  }

  /** What we transmit (null: nothing). `_present` is the mesh's: the SFU forwards to whoever pulls. */
  setLocal(local: LocalTracks | null, _present?: string[]) {
    this.local = local
    this.enqueue(() => this.publish())
  }

  /** Those gone stop being shown (the SFU stops forwarding what they published). */
  sync(present: string[]) {
    const here = new Set(present)
    for (const nick of [...this.pulled.keys()]) if (!here.has(nick)) this.forget(nick)
  }

  /** Presence's transmitters: each is pulled (again when they send a medium we did not pull); the rest forgotten. */
  setTransmitters(members: Pick<LiveMember, 'nick' | 'media'>[]) {
    this.transmitters = members
    const sending = new Map(members.filter((m) => m.nick !== this.self && m.media && (m.media.audio || m.media.video)).map((m) => [m.nick, m.media!]))
    for (const nick of [...this.pulled.keys()]) if (!sending.has(nick)) this.forget(nick)
    for (const [nick, media] of sending) {
      const had = this.pulled.get(nick)
      if (had && !(media.audio && !had.audio) && !(media.video && !had.video)) {
        // Narrowed (or the same): what they stopped is no longer shown.
        for (const kind of KINDS) if (had[kind] && !media[kind]) this.dropKind(nick, kind)
        this.pulled.set(nick, { audio: media.audio, video: media.video })
        continue
      }
      this.pulled.set(nick, { audio: media.audio, video: media.video })
      this.enqueue(() => this.pull(nick))
    }
  }

  setMaxKbps(kbps: number) {
    this.maxKbps = kbps
    void this.capBitrate()
  }

  /** The party's SFU messages (`sfu_pushed`, `sfu_offer`); anything else is ignored. */
  async handle(msg: ChannelServerMessage) {
    if (this.closed) return
    const waiter = this.waiters.find((w) => w.match(msg))
    if (waiter) {
      this.waiters = this.waiters.filter((w) => w !== waiter)
      waiter.resolve(msg)
    }
  }

  /** A transmitter joined again (a new SFU session of theirs): pulled again. */
  reset(nick: string, _present?: string[]) {
    this.forget(nick)
    this.setTransmitters(this.transmitters)
  }

  /** Our connection to the party came back (a new SFU session): everything starts over. */
  resetAll(_present?: string[]) {
    for (const nick of [...this.pulled.keys()]) this.forget(nick)
    this.pc.close()
    this.pc = this.connect()
    this.tx = {}
    this.published = { audio: false, video: false }
    this.queue = Promise.resolve()
    for (const w of this.waiters.splice(0)) w.resolve(null)
    this.setLocal(this.local)
    this.setTransmitters(this.transmitters)
  }

  /** The party refused our push: the offer it never answered is taken back. */
  rollback() {
    for (const w of this.waiters.filter((x) => x.match({ type: 'sfu_pushed', sdp: '', tracks: [] }))) {
      this.waiters = this.waiters.filter((x) => x !== w)
      w.resolve(null)
    }
  }

  close() {
    this.closed = true
    for (const w of this.waiters.splice(0)) w.resolve(null)
    for (const nick of [...this.pulled.keys()]) this.forget(nick)
    this.pc.close()
  }

  private connect(): RTCPeerConnection {
    const pc = new RTCPeerConnection({ iceServers: this.iceServers, bundlePolicy: 'max-bundle' })
    pc.ontrack = ({ track, transceiver }) => {
      const nick = transceiver.mid ? this.owners.get(transceiver.mid) : undefined
      if (!nick || !this.pulled.has(nick)) return
      const stream = this.streams.get(nick) ?? new MediaStream()
      this.streams.set(nick, stream)
      if (!stream.getTracks().includes(track)) stream.addTrack(track)
      track.onended = () => {
        stream.removeTrack(track)
        this.onRemote(nick, stream.getTracks().length ? stream : null)
      }
      this.onRemote(nick, stream)
    }
    pc.onsignalingstatechange = () => {
      if (pc.signalingState === 'stable') void this.capBitrate()
    }
    return pc
  }

  private enqueue(step: () => Promise<void>) {
    this.queue = this.queue.then(step).catch((err: unknown) => console.warn('SFU negotiation failed', err))
  }

  /** The party's answer matching `match`, or null after SFU_WAIT_MS (or when taken back). */
  private wait(match: (m: ChannelServerMessage) => boolean): Promise<ChannelServerMessage | null> {
    return new Promise((resolve) => {
      const waiter: Waiter = { match, resolve }
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
        resolve(null)
      }, SFU_WAIT_MS)
      waiter.resolve = (m) => {
        clearTimeout(timer)
        resolve(m)
      }
      this.waiters.push(waiter)
    })
  }

  /** Puts what we send on the connection: new media are pushed to the SFU; stopped ones emptied. */
  private async publish() {
    if (this.closed) return
    const pc = this.pc
    const fresh: Kind[] = []
    for (const kind of KINDS) {
      const track = this.local?.[kind] ?? null
      const tx = this.tx[kind]
      if (track && tx && this.published[kind]) {
        if (tx.sender.track !== track) await tx.sender.replaceTrack(track) // another device: no renegotiation
      } else if (track) {
        if (tx) {
          await tx.sender.replaceTrack(null).catch(() => undefined)
          tx.direction = 'inactive'
        }
        this.tx[kind] = pc.addTransceiver(track, { direction: 'sendonly', streams: [this.local!.stream] })
        fresh.push(kind)
      } else if (tx && this.published[kind]) {
        await tx.sender.replaceTrack(null).catch(() => undefined)
        tx.direction = 'inactive'
        this.published[kind] = false
      }
    }
    if (!fresh.length) return
    await pc.setLocalDescription(await pc.createOffer())
    const tracks: SfuTrack[] = fresh.flatMap((kind) => (this.tx[kind]?.mid ? [{ mid: this.tx[kind]!.mid!, kind }] : []))
    const answered = this.wait((m) => m.type === 'sfu_pushed')
    this.send({ type: 'sfu_push', sdp: pc.localDescription!.sdp, tracks })
    const answer = (await answered) as Pushed | null
    if (pc !== this.pc) return
    if (!answer) {
      // Refused or unanswered: the offer is taken back; the next change publishes again.
      await pc.setLocalDescription({ type: 'rollback' }).catch(() => undefined)
      for (const kind of fresh) {
        this.tx[kind]?.sender.replaceTrack(null).catch(() => undefined)
        delete this.tx[kind]
      }
      return
    }
    await pc.setRemoteDescription({ type: 'answer', sdp: answer.sdp })
    for (const t of answer.tracks) this.published[t.kind] = true
    await this.capBitrate()
  }

  /** Pulls `nick`'s tracks: the SFU's offer is answered, its mids shown under `nick`. */
  private async pull(nick: string) {
    if (this.closed || !this.pulled.has(nick)) return
    const pc = this.pc
    const offered = this.wait((m) => m.type === 'sfu_offer' && m.from === nick)
    this.send({ type: 'sfu_pull', from: nick })
    const offer = (await offered) as Offered | null
    if (!offer || pc !== this.pc || !this.pulled.has(nick)) return
    for (const t of offer.tracks) this.owners.set(t.mid, nick)
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp })
    await pc.setLocalDescription(await pc.createAnswer())
    this.send({ type: 'sfu_renegotiate', sdp: pc.localDescription!.sdp })
  }

  private dropKind(nick: string, kind: Kind) {
    const stream = this.streams.get(nick)
    if (!stream) return
    for (const track of stream.getTracks()) if (track.kind === kind) stream.removeTrack(track)
    this.onRemote(nick, stream.getTracks().length ? stream : null)
  }

  private forget(nick: string) {
    this.pulled.delete(nick)
    for (const [mid, owner] of [...this.owners]) if (owner === nick) this.owners.delete(mid)
    if (this.streams.delete(nick)) this.onRemote(nick, null)
  }

  private async capBitrate() {
    for (const tx of Object.values(this.tx)) {
      const sender = tx?.sender
      if (!sender?.track) continue
      const params = sender.getParameters()
      if (!params.encodings?.length) continue
      const want = this.maxKbps > 0 ? this.maxKbps * 1000 : undefined
      if (params.encodings.every((e) => e.maxBitrate === want)) continue
      for (const e of params.encodings) {
        if (want === undefined) delete e.maxBitrate
        else e.maxBitrate = want
      }
      await sender.setParameters(params).catch((err: unknown) => console.warn('bitrate cap refused', err))
    }
  }
}
