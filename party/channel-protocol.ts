import * as v from 'valibot'

/**
 * Wire protocol of the channel party (issue 13 "Live: the channel party"), imported by the party and by its clients
 * (the console's live view, the participant view, the tests and the bench). Every client message is validated with
 * these schemas; a refused one is answered with an `error` (or `slow_down`) event naming its cause, never dropped.
 *
 * Connecting: `wss://<host>/parties/channel/<channelId>?ticket=<ticket>&since=<seq>` — the ticket from
 * `POST /api/channel/live/{id}/ticket` (members, signed-in users) or `…/guest` (guests, public channels); `since` is
 * the last chat sequence the client saw (omit on a first join): the welcome carries every message after it.
 */

/** Roles inside the room: a member's channel permission, `participant` (a signed-in non-member) or `guest`. */
export const LIVE_ROLES = ['owner', 'admin', 'operator', 'recorder', 'mobile', 'participant', 'guest'] as const
export type LiveRole = (typeof LIVE_ROLES)[number]

/** Roles that speak in a moderated chat and set a moderated topic: the channel's operators. */
export const OPERATOR_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator', 'recorder'])
/** Roles that may ban and promote (the recorder, a chat moderator, mutes and removes only). */
export const MANAGER_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator'])
/** Collaborators: the connected staff of the channel, capped by the `collaborator_limit` mode. */
export const COLLABORATOR_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator', 'recorder'])

export const CHAT_MAX = 2000
export const TOPIC_MAX = 200

const ClientId = v.pipe(v.string(), v.minLength(1), v.maxLength(64), v.regex(/^[\w-]+$/, 'A client id is letters, digits, _ and -.'))

export const Attachment = v.object({
  url: v.pipe(v.string(), v.url('An attachment needs a URL.'), v.maxLength(1000), v.regex(/^https?:\/\//i, 'An attachment URL is http(s).')),
  name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
  mime: v.pipe(v.string(), v.regex(/^[\w.+-]+\/[\w.+-]+$/, 'A MIME type is type/subtype.'), v.maxLength(100)),
  size: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5_000_000_000))),
})
export type Attachment = v.InferOutput<typeof Attachment>

/**
 * Moderator actions on a participant. `stop` (issue 20, INVITER_ROLES): the party turns the participant's camera,
 * screen and microphone off, tells them (`tx_stopped`, cause `stopped`) and refuses every description of theirs that
 * sends until they turn transmitting on again themselves (`resume`); in a lecture it also withdraws an audience
 * member's invitation to speak, so they need a new one.
 */
export const MOD_ACTIONS = ['mute', 'unmute', 'remove', 'ban', 'promote', 'stop'] as const
/** How many participants one `breakouts` message assigns at most. */
export const BREAKOUT_ASSIGN_MAX = 500

// ---------------------------------------------------------------- conference signalling (issue 20)

/**
 * Who may transmit audio or video (issue 20): in a **lecture** (console rooms of type lecture, and every channel) the
 * owner, admins and operators, and participants a moderator invited to speak; in a **meeting** (console rooms of type
 * meeting) everyone, up to TRANSMITTERS_MAX at once (the full-mesh size) or a channel's `transmissions_limit`.
 */
export const SPEAKER_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator'])
/** Roles that invite a participant to speak and stop a transmission (the ones who moderate). */
export const INVITER_ROLES: ReadonlySet<string> = new Set(['owner', 'admin', 'operator'])
/** The full mesh's size: at most this many transmit at once in one room (each sends to every other peer). */
export const TRANSMITTERS_MAX = 6
/**
 * Above the mesh (a 7th transmitter where the channel's own `transmissions_limit` does not stop it first) a room whose
 * party has an SFU configured moves to it for the rest of the live session (`settings.media_path: 'sfu'`); through the
 * SFU at most this many transmit at once (each sends once, the SFU forwards).
 */
export const SFU_TRANSMITTERS_MAX = 50
/** The `ref` of refusals about receiving through the SFU (a pull, its renegotiation), not about transmitting. */
export const SFU_PULL_REF = 'sfu_pull'
/** Tracks one SFU push publishes at most (a microphone, a camera or screen, and their spares). */
export const SFU_TRACKS_MAX = 4
export const SDP_MAX = 20_000
export const CANDIDATE_MAX = 1_000

export interface MediaState {
  audio: boolean
  video: boolean
}

/**
 * What a session description sends, read by the party from the SDP itself (never from a client's claim): an `m=audio`
 * or `m=video` section whose port is not 0 and whose direction (its own `a=` line, else the session's, else sendrecv)
 * is `sendrecv` or `sendonly`.
 */
export function sentMedia(sdp: string): MediaState {
  const out: MediaState = { audio: false, video: false }
  let sessionDir = 'sendrecv'
  let section: { kind: string; port: number; dir: string | null } | null = null
  const close = () => {
    if (!section || section.port === 0) return
    const dir = section.dir ?? sessionDir
    if ((dir === 'sendrecv' || dir === 'sendonly') && (section.kind === 'audio' || section.kind === 'video')) out[section.kind] = true
  }
  for (const line of sdp.split(/\r?\n/)) {
    const m = /^m=(\w+) (\d+)/.exec(line)
    if (m) {
      close()
      section = { kind: m[1], port: Number(m[2]), dir: null }
      continue
    }
    const d = /^a=(sendrecv|sendonly|recvonly|inactive)\s*$/.exec(line)
    if (d) {
      if (section) section.dir = d[1]
      else sessionDir = d[1]
    }
  }
  close()
  return out
}

const Peer = v.pipe(v.string(), v.minLength(1), v.maxLength(160))
const Sdp = v.pipe(
  v.string(),
  v.minLength(1),
  v.maxLength(SDP_MAX, `A session description holds at most ${SDP_MAX} characters.`),
  v.startsWith('v=0', 'A session description starts with v=0.'),
)
export const IceCandidate = v.object({
  candidate: v.pipe(v.string(), v.maxLength(CANDIDATE_MAX)),
  sdpMid: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64)))),
  sdpMLineIndex: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(64)))),
  usernameFragment: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(256)))),
})
export type IceCandidate = v.InferOutput<typeof IceCandidate>
export const SfuTrack = v.object({
  mid: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  kind: v.picklist(['audio', 'video']),
})
export type SfuTrack = v.InferOutput<typeof SfuTrack>
export type ModAction = (typeof MOD_ACTIONS)[number]

export const ChannelClientMessage = v.variant('type', [
  /** A chat message: text, an attachment, or both; `id` is the client's, a resend is answered with the same ack. */
  v.pipe(
    v.object({
      type: v.literal('chat'),
      id: ClientId,
      text: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(CHAT_MAX, `A message holds at most ${CHAT_MAX} characters.`)), ''),
      attachment: v.optional(Attachment),
    }),
    v.check((m) => m.text.length > 0 || m.attachment !== undefined, 'A message needs text or an attachment.'),
  ),
  v.object({ type: v.literal('hand'), raised: v.boolean() }),
  v.object({ type: v.literal('topic'), topic: v.pipe(v.string(), v.trim(), v.maxLength(TOPIC_MAX, `A topic holds at most ${TOPIC_MAX} characters.`)) }),
  /** A moderator action on a participant (by their nick in the room). */
  v.object({ type: v.literal('mod'), action: v.picklist(MOD_ACTIONS), nick: v.pipe(v.string(), v.minLength(1), v.maxLength(160)) }),
  /** Operators switch moderated chat and moderated topic for this live session (the channel's modes are the default). */
  v.object({
    type: v.literal('settings'),
    moderated_chat: v.optional(v.boolean()),
    moderated_topic: v.optional(v.boolean()),
    /** Issue 20: "mute collaborators" — only the owner and those invited to speak send audio. */
    mute_collaborators: v.optional(v.boolean()),
  }),
  /**
   * Issue 20: a moderator (INVITER_ROLES) locks the call (`locked: true`): nobody new is admitted — moderators, and
   * whoever was present when it was locked (they keep their place: a dropped connection comes back), excepted; the
   * refused are told `locked`. `locked: false` unlocks. The lock lasts until unlocked or the live session ends.
   */
  v.object({ type: v.literal('lock'), locked: v.boolean() }),
  /** A participant stopped by a moderator turns transmitting on again themselves (issue 20; see MOD_ACTIONS `stop`). */
  v.object({ type: v.literal('resume') }),
  /**
   * Live breakouts (issue 20, console rooms only): a manager of a top-level room assigns present participants to its
   * open breakout rooms (`assign`: nick → breakout id); each assigned participant is told `move` and their page
   * reconnects to the breakout's party. An empty `assign` closes the breakouts: every breakout party is told and moves
   * everyone in it back to this room (`move` to the parent).
   */
  v.object({
    type: v.literal('breakouts'),
    assign: v.pipe(
      v.record(Peer, v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
      v.check((a) => Object.keys(a).length <= BREAKOUT_ASSIGN_MAX, `At most ${BREAKOUT_ASSIGN_MAX} participants are assigned at once.`),
    ),
  }),
  /** A password channel's answer to `password_required`. */
  v.object({ type: v.literal('password'), password: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) }),
  /** The owner or an admin ends the live session for everyone. */
  v.object({ type: v.literal('end') }),
  /**
   * WebRTC signalling (issue 20), relayed by the party to the connections of `to` only — both admitted. An offer or
   * answer whose SDP sends audio or video needs the right to transmit (lecture: speaker roles or invited; meeting:
   * room under the transmitter cap) and the channel's modes (text-only: neither, audio-only: no video); a watcher's
   * receive-only description needs nothing more than being admitted.
   */
  v.object({ type: v.literal('offer'), to: Peer, sdp: Sdp }),
  v.object({ type: v.literal('answer'), to: Peer, sdp: Sdp }),
  v.object({ type: v.literal('ice'), to: Peer, candidate: IceCandidate }),
  /** The sender stops transmitting (both false) or transmits less (a transmitter turning its camera off). */
  v.object({ type: v.literal('media'), audio: v.boolean(), video: v.boolean() }),
  /** A moderator invites a participant to speak (`invite: true`; their raised hand is lowered) or revokes it. */
  v.object({ type: v.literal('speak'), nick: Peer, invite: v.boolean() }),
  /**
   * The SFU path (issue 20; only once `settings.media_path` is `sfu`): the party talks to the SFU's HTTPS API for the
   * browser (the app secret never leaves it). `sfu_push`: the browser's offer and the transceivers it sends on (the
   * same rules as a mesh description that sends); answered `sfu_pushed` with the SFU's answer. `sfu_pull`: receive
   * `from`'s tracks; answered `sfu_offer` (the SFU's offer and which mid carries what), which the browser answers with
   * `sfu_renegotiate`. Refusals of a pull or its renegotiation carry `ref: 'sfu_pull'` (they are not about
   * transmitting).
   */
  v.object({
    type: v.literal('sfu_push'),
    sdp: Sdp,
    tracks: v.pipe(v.array(SfuTrack), v.minLength(1), v.maxLength(SFU_TRACKS_MAX, `A push publishes at most ${SFU_TRACKS_MAX} tracks.`)),
  }),
  v.object({ type: v.literal('sfu_pull'), from: Peer }),
  v.object({ type: v.literal('sfu_renegotiate'), sdp: Sdp }),
])
export type ChannelClientMessage = v.InferOutput<typeof ChannelClientMessage>

/** The sender cap in kbps: the lower of the channel's mode and the realm's maximum, each only when positive; 0: none. */
export function bitrateCap(channelKbps: number, realmKbps: number): number {
  const caps = [channelKbps, realmKbps].filter((k) => Number.isFinite(k) && k > 0)
  return caps.length ? Math.min(...caps) : 0
}

/**
 * The channel's `bandwidth share limit` (issue 20): no transmitter takes more than `sharePct` % of the room's maximum
 * bitrate (bitrateCap: the channel's max bitrate, else the realm's). 0 (or 100) leaves the cap as it is; without a
 * maximum there is nothing to share (0: none). Never below 1 kbps.
 */
export function shareCap(cap: number, sharePct: number): number {
  if (!(cap > 0) || !(sharePct > 0) || sharePct >= 100) return cap > 0 ? cap : 0
  return Math.max(1, Math.floor((cap * sharePct) / 100))
}

/** Roles that a lecture's `auto voice count` invites to speak on their own (the audience: not staff, not the recorder). */
export const AUDIENCE_ROLES: ReadonlySet<string> = new Set(['participant', 'mobile', 'guest'])

export interface LiveMember {
  /** Connection-independent identity: the user's nick, or `guest:<id>` for a guest. */
  nick: string
  name: string
  role: LiveRole
  muted: boolean
  hand: boolean
  since: number
  /** Invited to speak by a moderator (issue 20). */
  speaker?: boolean
  /** What they transmit now (from the last description the party relayed for them); absent when nothing. */
  media?: MediaState
}

export interface ChatMessage {
  seq: number
  id: string
  nick: string
  name: string
  role: LiveRole
  text: string
  attachment?: Attachment
  /** Server time, epoch ms. */
  at: number
}

export interface LiveSettings {
  moderated_chat: boolean
  moderated_topic: boolean
  text_only: boolean
  audio_only: boolean
  attachments: boolean
  persistent: boolean
  /**
   * The cap on each sender's bitrate (issue 20), kbps: the channel's `max bitrate kbps` mode when set (> 0) and lower
   * than the realm's maximum bitrate, else the realm's; 0 when neither caps. Clients apply it with
   * `RTCRtpSender.setParameters`. With the channel's `bandwidth share limit` (N %), N % of that (shareCap).
   */
  max_bitrate_kbps: number
  /**
   * "Bitrate reduction on loss" (issue 20; the channel's `bitrate_reduction` mode): each sender lowers its bitrate
   * towards a peer whose outbound packet loss passes the threshold and raises it back once loss clears
   * (app/components/live/bitrate-adapt.ts).
   */
  reduce_on_loss: boolean
  /**
   * "Mute collaborators" (issue 20; the channel's mode, operators switch it for the session): nobody but the owner and
   * the participants invited to speak sends audio — the party refuses the rest's audio (`collaborators_muted`).
   */
  mute_collaborators: boolean
  /**
   * How media flows (issue 20): `mesh` (peer to peer, signalled with offer/answer/ice) until the room goes above the
   * mesh size with an SFU configured, then `sfu` for the rest of the live session (`sfu_push` / `sfu_pull`).
   */
  media_path: 'mesh' | 'sfu'
  /** Issue 20: the call is locked (nobody new is admitted; see the `lock` message). */
  locked: boolean
  /**
   * Issue 20, console rooms: the live breakouts — who is assigned to which breakout room (nick → room id); empty while
   * none are open. In a breakout: always empty.
   */
  breakouts: Record<string, string>
}

/** Why something was refused (the `cause` of an `error` event; the clients translate `live.cause.<cause>`). */
export const LIVE_CAUSES = [
  'invalid_message',
  'not_found',
  'unavailable',
  'banned',
  'members_only',
  'room_full',
  'environment_full',
  'collaborators_full',
  'password_required',
  'wrong_password',
  'moderated',
  'muted',
  'audio_only',
  'text_only',
  'attachments_disabled',
  'forbidden',
  'not_present',
  'guest',
  'removed',
  'ended',
  /** A console room (party `room`): closed (itself or its parent room), or outside its activity window. */
  'closed',
  'not_active',
  /** Conference signalling (issue 20): a lecture's audience member not invited to speak; the transmitter cap. */
  'not_speaker',
  'transmitters_full',
  /**
   * Transmission limits (issue 20), counted by the party: the realm's transmission seconds per user for the renewal
   * period are used up (`tx_weekly`), or, in a console room, one transmission reached `room_tx_duration` and the
   * realm's `room_tx_interval` has not passed since (`tx_duration`). Refused offers and stopped transmissions carry
   * `retry_after_ms`: when transmitting is possible again.
   */
  'tx_weekly',
  'tx_duration',
  /** "Mute collaborators" is on: only the owner and the invited speak. */
  'collaborators_muted',
  /** The room moved to the SFU: transmit with `sfu_push`, not over the mesh (and mesh-only messages in reverse). */
  'sfu_required',
  'mesh_required',
  /** Issue 20: the call is locked (joining refused); a moderator stopped the recipient's transmission (`stopped`). */
  'locked',
  'stopped',
  /** Breakouts: this is not a top-level console room, or the room named is not one of its open breakouts. */
  'no_breakouts',
] as const
export type LiveCause = (typeof LIVE_CAUSES)[number]

export const SLOW_DOWN_CAUSES = ['per_second', 'min_interval', 'per_day', 'drop_rate'] as const
export type SlowDownCause = (typeof SLOW_DOWN_CAUSES)[number]

export type ChannelServerMessage =
  | {
      type: 'welcome'
      you: LiveMember
      channel: { id: string; name: string }
      topic: string
      settings: LiveSettings
      members: LiveMember[]
      /** Every chat message after the client's `since` (the recent tail on a first join). */
      messages: ChatMessage[]
      /** The room's last chat sequence. */
      seq: number
      /** Server time, epoch ms. */
      now: number
    }
  | { type: 'password_required' }
  | { type: 'joined'; member: LiveMember }
  | { type: 'left'; nick: string }
  | { type: 'member'; member: LiveMember }
  | { type: 'chat'; message: ChatMessage }
  | { type: 'ack'; id: string; seq: number }
  | { type: 'topic'; topic: string; by: string }
  | { type: 'settings'; settings: LiveSettings }
  | { type: 'slow_down'; cause: SlowDownCause; retry_after_ms: number; ref?: string }
  | { type: 'error'; cause: LiveCause; message: string; ref?: string; retry_after_ms?: number }
  /**
   * The party stopped the recipient's transmission (issue 20): a limit ran out (`tx_weekly`, `tx_duration`, with
   * `retry_after_ms`) — or a moderator `by` stopped it (`stopped`) — the client stops sending; presence no longer shows
   * it transmitting.
   */
  | { type: 'tx_stopped'; cause: LiveCause; message: string; retry_after_ms?: number; by?: string }
  | { type: 'removed'; cause: 'removed' | 'banned' | 'ended' }
  /**
   * Issue 20 breakouts: go to room `room` (`breakout`: assigned to a breakout of this room; `return`: the breakouts
   * closed, back to the parent room `room`). The participant's page reconnects to that room's party.
   */
  | { type: 'move'; room: string; name: string; reason: 'breakout' | 'return' }
  /** Signalling relayed from `from` (issue 20). */
  | { type: 'offer'; from: string; sdp: string }
  | { type: 'answer'; from: string; sdp: string }
  | { type: 'ice'; from: string; candidate: IceCandidate }
  /** To the invited (or revoked) participant: they may (no longer) transmit; on revoke they must stop. */
  | { type: 'speak'; invite: boolean; by: string }
  /** The SFU's answer to the recipient's `sfu_push` (issue 20). */
  | { type: 'sfu_pushed'; sdp: string; tracks: SfuTrack[] }
  /** The SFU's offer bringing `from`'s tracks (each mid and what it carries); answer with `sfu_renegotiate`. */
  | { type: 'sfu_offer'; from: string; sdp: string; tracks: SfuTrack[] }
  | { type: 'ended' }

/** Close codes the party uses after telling why (an `error` or `removed` event first). */
export const CLOSE_REFUSED = 4003
export const CLOSE_REMOVED = 4004
export const CLOSE_ENDED = 4005

/**
 * The realm API's control call to a live room (`POST /parties/<party>/<room>` with `x-party-ticket`: a ticket of party
 * `<party>-control` for that room, signed with the shared PARTY_SECRET): `end` ends the live session for everyone
 * (told `ended`, then closed) — the room API sends it when a room (or its parent) is closed.
 */
export const LiveControl = v.variant('action', [
  v.object({ action: v.literal('end'), by: v.optional(v.pipe(v.string(), v.maxLength(160)), '') }),
  /**
   * Issue 20, party to party (the parent room's party, with a control ticket for the breakout; `parent` must be this
   * room's parent): `nicks` (absent: everyone in this breakout) are told `move` to `room` (`name`) — back to the parent
   * when the breakouts close or they are taken out of it (`return`), or on to another breakout (`breakout`).
   */
  v.object({
    action: v.literal('move'),
    parent: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
    room: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
    name: v.pipe(v.string(), v.maxLength(200)),
    reason: v.picklist(['breakout', 'return']),
    nicks: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(160))), v.maxLength(BREAKOUT_ASSIGN_MAX))),
  }),
])
export type LiveControl = v.InferOutput<typeof LiveControl>
export const controlParty = (party: string) => `${party}-control`
