import type { ChannelClientMessage, ChannelServerMessage, IceCandidate } from '../../../party/channel-protocol'
import { adaptKbps, LOSS_CHECK_MS, lossBetween, outboundCounts, type OutboundCounts } from './bitrate-adapt'

/**
 * The conference's full mesh (issue 20): one `RTCPeerConnection` per peer, negotiated with the perfect-negotiation
 * pattern over the live party's signalling (`offer` / `answer` / `ice`, relayed between admitted participants only).
 *
 * - A transmitter holds a connection to every participant present and sends its tracks on its own transceivers
 *   (one audio, one video); a watcher gets connections only from the offers it receives and answers receive-only.
 * - Polite side: the lower nick (deterministic on both ends); the impolite side ignores a colliding offer.
 * - Muting or stopping a medium turns its transceiver `recvonly` (the description then no longer sends it — the party
 *   reads who transmits from the SDP); resuming turns it back `sendrecv`, which renegotiates.
 * - Every sender is capped with `RTCRtpSender.setParameters` at `maxKbps` (0: no cap). With "bitrate reduction on
 *   loss" on (`setReduceOnLoss`), each peer's senders go lower while that peer reports loss and back up once it clears
 *   (./bitrate-adapt.ts), one peer at a time: a peer on a bad network does not slow the others down.
 * - A peer that comes back (its `joined`, a description with another DTLS fingerprint, a failed connection) gets a
 *   fresh connection; our own reconnection (`resetAll`) starts every connection again.
 * - Signalling can be lost (the party drops a message to a peer whose socket is between two connections): an offer
 *   still unanswered after `RETRY_MS` is sent again (the same offer, so a late answer to the first still fits), and a negotiated connection that has not started
 *   connecting by then (its candidates lost) restarts ICE; the check repeats until the connection is up. A connection
 *   that is up while one of our tracks was never negotiated on it (its offer lost in a glare) offers again. An answer
 *   to an offer we took back is ignored.
 */
export type Kind = 'audio' | 'video'
export interface LocalTracks {
  stream: MediaStream
  audio: MediaStreamTrack | null
  video: MediaStreamTrack | null
}

interface Peer {
  pc: RTCPeerConnection
  polite: boolean
  makingOffer: boolean
  ignoreOffer: boolean
  fingerprint: string | null
  tx: Partial<Record<Kind, RTCRtpTransceiver>>
  stream: MediaStream
  retry: ReturnType<typeof setTimeout> | null
  /** Checks made since the connection was last up (the third restarts ICE even while it is still connecting). */
  checks: number
  pendingIce: IceCandidate[]
  offer: () => Promise<void>
  /** Bitrate reduction on loss: the lowered bitrate in force (0: the cap applies) and the last statistics read. */
  lossKbps: number
  counts: OutboundCounts | null
  /** The bitrate caps in progress: one at a time, each reading the parameters the previous one left. */
  capping: Promise<void>
}

/** How long an offer waits for its answer, or a negotiated connection for its candidates, before trying again. */
export const RETRY_MS = 6_000

const fingerprintOf = (sdp: string) => /^a=fingerprint:(.+)$/m.exec(sdp)?.[1]?.trim() ?? null

export class Mesh {
  private peers = new Map<string, Peer>()
  private local: LocalTracks | null = null
  private maxKbps = 0
  private closed = false
  private lossTimer: ReturnType<typeof setInterval> | null = null

  constructor(
    private readonly self: string,
    private readonly send: (m: ChannelClientMessage) => void,
    private readonly onRemote: (nick: string, stream: MediaStream | null) => void,
    private readonly iceServers: RTCIceServer[] = [],
  ) {}

  /** The nicks we hold a connection with. */
  get nicks(): string[] {
    return [...this.peers.keys()]
  }

  /** The connections (for statistics). */
  connection(nick: string): RTCPeerConnection | null {
    return this.peers.get(nick)?.pc ?? null
  }

  /** What we transmit (null: nothing); `present`: everyone admitted here now (a transmitter connects to them all). */
  setLocal(local: LocalTracks | null, present: string[]) {
    this.local = local
    if (local) for (const nick of present) if (nick !== this.self) this.ensure(nick)
    for (const peer of this.peers.values()) void this.attach(peer)
  }

  /** Keeps connections in step with presence: a transmitter connects to newcomers; those gone are closed. */
  sync(present: string[]) {
    const here = new Set(present)
    for (const nick of [...this.peers.keys()]) if (!here.has(nick)) this.drop(nick)
    if (this.local) for (const nick of present) if (nick !== this.self) this.ensure(nick)
  }

  setMaxKbps(kbps: number) {
    this.maxKbps = kbps
    for (const peer of this.peers.values()) void this.capBitrate(peer)
  }

  /** Bitrate reduction on loss (the channel's mode): checks every peer's outbound loss every LOSS_CHECK_MS while on. */
  setReduceOnLoss(on: boolean) {
    if (on && !this.lossTimer && !this.closed) this.lossTimer = setInterval(() => void this.checkLoss(), LOSS_CHECK_MS)
    if (!on && this.lossTimer) {
      clearInterval(this.lossTimer)
      this.lossTimer = null
      for (const peer of this.peers.values()) {
        peer.lossKbps = 0
        peer.counts = null
        void this.capBitrate(peer)
      }
    }
  }

  /** The bitrate in force towards `nick` (kbps, 0: none), for statistics and tests. */
  bitrateFor(nick: string): number {
    const peer = this.peers.get(nick)
    return peer ? this.effectiveKbps(peer) : 0
  }

  private effectiveKbps(peer: Peer): number {
    return peer.lossKbps > 0 && (this.maxKbps <= 0 || peer.lossKbps < this.maxKbps) ? peer.lossKbps : this.maxKbps
  }

  private async checkLoss() {
    for (const peer of [...this.peers.values()]) {
      if (!peer.tx.audio?.sender.track && !peer.tx.video?.sender.track) continue
      let counts: OutboundCounts
      try {
        counts = outboundCounts((await peer.pc.getStats()).values() as Iterable<{ type: string }>)
      } catch {
        continue
      }
      const before = peer.counts
      peer.counts = counts
      if (!before) continue
      const next = adaptKbps(peer.lossKbps, this.maxKbps, lossBetween(before, counts))
      if (next !== peer.lossKbps) {
        peer.lossKbps = next
        await this.capBitrate(peer)
      }
    }
  }

  /**
   * A signalling message from the party (offer, answer or ICE from a peer); anything else is ignored. `fresh`: the
   * offer is being tried again on a new connection.
   */
  async handle(msg: ChannelServerMessage, fresh = false): Promise<void> {
    if (this.closed) return
    if (msg.type === 'ice') {
      const peer = this.peers.get(msg.from)
      if (!peer) return
      // Candidates that come before the description they belong to (our own offer is still out) wait for it.
      if (!peer.pc.remoteDescription) {
        peer.pendingIce.push(msg.candidate)
        return
      }
      try {
        await peer.pc.addIceCandidate(msg.candidate)
      } catch (err) {
        if (!peer.ignoreOffer) console.warn('ice candidate refused', err)
      }
      return
    }
    if (msg.type !== 'offer' && msg.type !== 'answer') return
    let peer = this.peers.get(msg.from)
    const fingerprint = fingerprintOf(msg.sdp)
    if (msg.type === 'offer' && peer && peer.fingerprint && fingerprint && peer.fingerprint !== fingerprint) {
      // The peer started over (it reconnected): its old connection is gone.
      this.drop(msg.from)
      peer = undefined
    }
    if (!peer) {
      if (msg.type === 'answer') return
      peer = this.ensure(msg.from)
    }
    const pc = peer.pc
    // The answer to an offer we took back (retried, or rolled back for the peer's own offer) has nothing to answer.
    if (msg.type === 'answer' && pc.signalingState !== 'have-local-offer') return
    const collision = msg.type === 'offer' && (peer.makingOffer || pc.signalingState !== 'stable')
    peer.ignoreOffer = !peer.polite && collision
    if (peer.ignoreOffer) return
    try {
      await pc.setRemoteDescription({ type: msg.type, sdp: msg.sdp })
      peer.fingerprint = fingerprint
      for (const candidate of peer.pendingIce.splice(0)) await pc.addIceCandidate(candidate).catch(() => undefined)
      if (msg.type === 'offer') {
        await pc.setLocalDescription()
        if (pc.localDescription) this.send({ type: 'answer', to: msg.from, sdp: pc.localDescription.sdp })
      }
      this.watch(msg.from, peer)
    } catch (err) {
      // A peer that started over keeping its certificate (the same page joining again) offers its m-lines in another
      // order, which the old connection refuses: that connection is gone, and the offer starts a fresh one.
      if (msg.type === 'offer' && !fresh && err instanceof DOMException && err.name === 'InvalidAccessError') {
        this.drop(msg.from)
        return this.handle(msg, true)
      }
      console.warn('session description refused', err)
    }
  }

  /** A peer joined again (or we must start over with it): a fresh connection. */
  reset(nick: string, present: string[]) {
    this.drop(nick)
    if (this.local && present.includes(nick)) this.ensure(nick)
  }

  /** Our own connection to the party came back: every peer connection starts over. */
  resetAll(present: string[]) {
    for (const nick of [...this.peers.keys()]) this.drop(nick)
    this.sync(present)
  }

  /**
   * The party refused our description (not allowed to transmit): offers it never relayed are taken back, so the
   * connections renegotiate what we may send (the transceivers are `recvonly` once we stop).
   */
  rollback() {
    for (const peer of this.peers.values())
      if (peer.pc.signalingState === 'have-local-offer') void peer.pc.setLocalDescription({ type: 'rollback' }).catch(() => undefined)
  }

  close() {
    this.closed = true
    if (this.lossTimer) clearInterval(this.lossTimer)
    this.lossTimer = null
    for (const peer of this.peers.values()) if (peer.retry) clearTimeout(peer.retry)
    for (const nick of [...this.peers.keys()]) this.drop(nick)
  }

  private drop(nick: string) {
    const peer = this.peers.get(nick)
    if (!peer) return
    this.peers.delete(nick)
    if (peer.retry) clearTimeout(peer.retry)
    peer.pc.close()
    this.onRemote(nick, null)
  }

  private ensure(nick: string): Peer {
    const known = this.peers.get(nick)
    if (known) return known
    const pc = new RTCPeerConnection({ iceServers: this.iceServers })
    const offer = async () => {
      try {
        peer.makingOffer = true
        await pc.setLocalDescription()
        if (pc.localDescription && this.peers.get(nick) === peer) {
          this.send({ type: pc.localDescription.type === 'answer' ? 'answer' : 'offer', to: nick, sdp: pc.localDescription.sdp })
          this.watch(nick, peer)
        }
      } catch (err) {
        console.warn('offer failed', err)
      } finally {
        peer.makingOffer = false
      }
    }
    const peer: Peer = {
      pc,
      polite: this.self < nick,
      makingOffer: false,
      ignoreOffer: false,
      fingerprint: null,
      tx: {},
      stream: new MediaStream(),
      retry: null,
      checks: 0,
      pendingIce: [],
      offer,
      lossKbps: 0,
      counts: null,
      capping: Promise.resolve(),
    }
    this.peers.set(nick, peer)
    pc.onnegotiationneeded = offer
    pc.onicecandidate = ({ candidate }) => {
      if (!candidate || !candidate.candidate) return
      const c = candidate.toJSON()
      const out: IceCandidate = { candidate: c.candidate ?? '', sdpMid: c.sdpMid ?? null, sdpMLineIndex: c.sdpMLineIndex ?? null }
      if (c.usernameFragment) out.usernameFragment = c.usernameFragment
      this.send({ type: 'ice', to: nick, candidate: out })
    }
    pc.ontrack = ({ track }) => {
      if (!peer.stream.getTracks().includes(track)) peer.stream.addTrack(track)
      track.onended = () => {
        peer.stream.removeTrack(track)
        this.onRemote(nick, peer.stream.getTracks().length ? peer.stream : null)
      }
      this.onRemote(nick, peer.stream)
    }
    pc.onsignalingstatechange = () => {
      if (pc.signalingState === 'stable') void this.capBitrate(peer)
    }
    pc.onconnectionstatechange = () => {
      // A connection that failed (a network that dropped for good) starts over; the transmitter offers again.
      if (pc.connectionState === 'failed' && this.peers.get(nick) === peer) {
        this.drop(nick)
        if (this.local) this.ensure(nick)
      }
    }
    void this.attach(peer)
    return peer
  }

  /**
   * Checks the peer again in `RETRY_MS` (see the class's note): an unanswered offer is made again, a connection whose
   * candidates never arrived restarts ICE (one still connecting is looked at twice more first); a connected one with
   * nothing pending is left alone.
   */
  private watch(nick: string, peer: Peer) {
    if (peer.retry) clearTimeout(peer.retry)
    peer.retry = setTimeout(() => {
      peer.retry = null
      const pc = peer.pc
      if (this.closed || this.peers.get(nick) !== peer) return
      if (pc.signalingState === 'have-local-offer' && !peer.makingOffer && pc.localDescription) {
        // Even over a connection that is up: a renegotiation left unanswered would block the next one. The same offer
        // goes again (not a new one), so a late answer to the first sending still fits it, and the second is ignored.
        this.send({ type: 'offer', to: nick, sdp: pc.localDescription.sdp })
        this.watch(nick, peer)
        return
      }
      if (pc.connectionState === 'connected') {
        peer.checks = 0
        // Up, yet a track of ours was never negotiated here (the offer carrying it lost in a glare): offer it again.
        if (pc.signalingState === 'stable' && !peer.makingOffer && this.unnegotiated(peer)) void peer.offer()
        return
      }
      peer.checks++
      if (pc.signalingState === 'stable' && (pc.connectionState !== 'connecting' || peer.checks >= 3)) {
        peer.checks = 0
        pc.restartIce() // fires negotiationneeded: a fresh offer with new credentials
        this.watch(nick, peer)
      } else {
        this.watch(nick, peer)
      }
    }, RETRY_MS)
  }

  /** Puts our tracks on the peer's transceivers (creating them), or turns a medium we no longer send `recvonly`. */
  private async attach(peer: Peer) {
    for (const kind of ['audio', 'video'] as const) {
      const track = this.local?.[kind] ?? null
      const tx = peer.tx[kind]
      if (track) {
        if (!tx) {
          peer.tx[kind] = peer.pc.addTransceiver(track, { direction: 'sendrecv', streams: [this.local!.stream] })
        } else {
          if (tx.sender.track !== track) await tx.sender.replaceTrack(track).catch(() => undefined)
          if (tx.direction !== 'sendrecv') tx.direction = 'sendrecv'
        }
      } else if (tx && tx.direction !== 'recvonly' && tx.direction !== 'stopped') {
        await tx.sender.replaceTrack(null).catch(() => undefined)
        tx.direction = 'recvonly'
      }
    }
    await this.capBitrate(peer)
  }

  /** A track we send on a transceiver the connection has not (yet) negotiated to send. */
  private unnegotiated(peer: Peer): boolean {
    return Object.values(peer.tx).some(
      (tx) => tx?.sender.track && tx.direction === 'sendrecv' && tx.currentDirection !== 'sendrecv' && tx.currentDirection !== 'sendonly',
    )
  }

  private capBitrate(peer: Peer): Promise<void> {
    peer.capping = peer.capping.then(() => this.applyCap(peer)).catch((err: unknown) => console.warn('bitrate cap refused', err))
    return peer.capping
  }

  private async applyCap(peer: Peer) {
    for (const tx of Object.values(peer.tx)) {
      const sender = tx?.sender
      if (!sender?.track) continue
      const params = sender.getParameters()
      if (!params.encodings?.length) continue // before negotiation: applied once it is stable
      const kbps = this.effectiveKbps(peer)
      const want = kbps > 0 ? kbps * 1000 : undefined
      if (params.encodings.every((e) => e.maxBitrate === want)) continue
      for (const e of params.encodings) {
        if (want === undefined) delete e.maxBitrate
        else e.maxBitrate = want
      }
      await sender.setParameters(params).catch((err: unknown) => console.warn('bitrate cap refused', err))
    }
  }
}
