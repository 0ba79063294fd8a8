import type * as Party from 'partykit/server'
import * as v from 'valibot'
import { LIVE_RENEW_MS, txPeriod, type LiveChannelState, type LivePresence, type LiveSessionEnd, type LiveTxAnswer } from '#shared/schemas/channel-live'
import { filterText } from '#shared/word-filter'
import { verifyPassword } from '../worker/lib/password'
import { sfuFromEnv, type Sfu } from '../worker/lib/sfu'
import {
  CLOSE_ENDED,
  CLOSE_REFUSED,
  CLOSE_REMOVED,
  COLLABORATOR_ROLES,
  ChannelClientMessage,
  controlParty,
  INVITER_ROLES,
  LiveControl,
  MANAGER_ROLES,
  type MediaState,
  sentMedia,
  bitrateCap,
  shareCap,
  AUDIENCE_ROLES,
  SFU_PULL_REF,
  SFU_TRANSMITTERS_MAX,
  type SfuTrack,
  SPEAKER_ROLES,
  TRANSMITTERS_MAX,
  OPERATOR_ROLES,
  type ChannelServerMessage,
  type ChatMessage,
  type LiveCause,
  type LiveMember,
  type LiveRole,
  type LiveSettings,
  type SlowDownCause,
} from './channel-protocol'
import { signTicket, verifyTicket, type Ticket } from './ticket'
import { answerClose, roomIdOf } from './socket'

/**
 * The channel party (issue 13 "Live: the channel party"): one room per channel. Joined with the ticket the realm API
 * mints (`POST /api/channel/live/{id}/ticket` or `…/guest`); presence with roles, chat with a server sequence number,
 * hands, the topic and moderator actions. Every rule is enforced here, not only in the clients: bans, members-only
 * channels, passwords, user and collaborator limits, moderated chat and topic, text-only and audio-only, attachments,
 * the word filter and the realm's message limits (answered `slow_down`).
 *
 * Nothing said is lost: a message is stored in room storage before it is broadcast and acknowledged, then flushed in
 * batches to D1 through the realm API (idempotent by (channel, seq)); a client reconnecting with `since` gets every
 * message after it. When the live session ends (the last participant gone for END_GRACE_MS, or the owner ends it)
 * its metrics go to the realm API (`csm_session`). The channel's data comes from the realm API, cached STATE_TTL_MS.
 *
 * The realm's users per environment are counted by leases the realm API takes when it mints a ticket: while anyone is
 * here the party renews the leases of who is present every LIVE_RENEW_MS, and frees a participant's place when they
 * leave (`POST …/presence`); a crashed party renews nothing and its leases run out (120 s).
 */

/**
 * What differs between the parties built on this class (party/channel.ts, party/room.ts): the party's name (tickets,
 * leases), the realm API prefix it calls with a service ticket of party `service`, and whether bans and promotions
 * are stored as the member's permission (channels) or hold for the live session only (rooms have no permissions).
 */
export interface LiveKind {
  party: 'channel' | 'room'
  api: 'channel/live' | 'room/live'
  service: string
  persistRoles: boolean
}

export const CHANNEL_KIND: LiveKind = { party: 'channel', api: 'channel/live', service: 'channel-api', persistRoles: true }

/** The door of every live party: a valid ticket of `party` for this room, handed to `onConnect` as `x-ticket`. */
export async function admitTicket(request: Party.Request, lobby: Party.Lobby, party: string) {
  const ticket = await verifyTicket(String(lobby.env.PARTY_SECRET ?? ''), new URL(request.url).searchParams.get('ticket'), party, lobby.id)
  if (!ticket) return new Response('A valid ticket is required.', { status: 401 })
  request.headers.set('x-ticket', JSON.stringify(ticket))
  return request
}

const STATE_TTL_MS = 5_000
const FLUSH_DELAY_MS = 500
const RETRY_MS = 5_000
/** How long a session outlives its last participant (the `LIVE_END_GRACE_MS` variable overrides it: tests pass a short one). */
const END_GRACE_MS = 15_000
const TAIL = 50
const REPLAY_MAX = 1000
const FLUSH_BATCH = 200

interface ConnState {
  nick: string
  name: string
  role: LiveRole
  admitted: boolean
  /** The chat sequence the client said it saw last (-1: a first join). */
  since: number
  joined: number
  /** This connection's SFU session (issue 20: one browser peer connection to the SFU), once it pushed or pulled. */
  sfu?: string
}

/** A transmitter's tracks published on the SFU (issue 20): its session and, per mid, the name others pull it by. */
interface Published {
  session: string
  tracks: (SfuTrack & { name: string })[]
}

interface LiveSession {
  id: string
  started_at: number
  chat: number
  attachments: number
  hands: number
  peak: number
}

/** One participant's presence in the session (key `pd:<nick>`, one small value each, however large the crowd). */
interface Presence {
  /** When the current stretch started (null while away). */
  from: number | null
  seconds: number
}

interface Meta {
  channelId: string
  realm: string
}

/**
 * One transmitter's count (issue 20; key `tx:<nick>`, survives a restart): milliseconds transmitted in this room during
 * the renewal period starting `period` (`here`; the realm API keeps it too, with what they transmitted elsewhere in
 * the realm), the running stretch (`from`), and for `room_tx_duration` the current stint (`stint`, ms) with the end of
 * the last stretch (`lastStop`): a stint starts over once `room_tx_interval` seconds pass without transmitting.
 */
interface TxCount {
  /** Counted in the realm API too (the room had a weekly limit when the transmission started). */
  d1: boolean
  period: number
  here: number
  elsewhere: number
  from: number | null
  stint: number
  lastStop: number
}

/** The transmission limits of a live room (seconds; weekly -1 and duration 0: none). */
interface TxLimits {
  weekly: number
  days: number
  duration: number
  interval: number
}

const mkey = (seq: number) => `m:${String(seq).padStart(12, '0')}`
const idkey = (nick: string, id: string) => `id:${nick}:${id}`
const daykey = (nick: string, now: number) => `day:${new Date(now).toISOString().slice(0, 10)}:${nick}`
const pdkey = (nick: string) => `pd:${nick}`
const txkey = (nick: string) => `tx:${nick}`
const isGuest = (nick: string) => nick.startsWith('guest:')

const CAUSE_TEXT: Record<LiveCause, string> = {
  invalid_message: 'The message is not valid.',
  not_found: 'This channel does not exist.',
  unavailable: 'The channel is unavailable; try again.',
  banned: 'You are banned from this channel.',
  members_only: 'Only members may join this channel.',
  room_full: 'The channel is full.',
  environment_full: "The realm's live environment is full; try again in a little while.",
  collaborators_full: 'The channel has as many collaborators as it allows.',
  password_required: 'This channel asks for its password.',
  wrong_password: 'The password is not right.',
  moderated: 'Only operators may do this here.',
  muted: 'You are muted.',
  audio_only: 'This channel is audio-only: chat is off.',
  text_only: 'This channel is text-only: audio and video attachments are off.',
  attachments_disabled: 'Attachments are disabled in this channel.',
  forbidden: 'Your role may not do this.',
  not_present: 'That participant is not here.',
  guest: 'A guest cannot be given this role.',
  removed: 'You were removed from the channel.',
  ended: 'The live session has ended.',
  closed: 'This room is closed.',
  not_active: 'This room is outside its activity window.',
  not_speaker: 'Only speakers transmit in a lecture: raise your hand and wait to be invited.',
  transmitters_full: 'As many people as the room allows are transmitting.',
  tx_weekly: 'Your transmission time for this period is used up.',
  tx_duration: "You reached this room's transmission time; wait before transmitting again.",
  collaborators_muted: 'Microphones are muted: only the owner and those invited to speak are heard.',
  sfu_required: 'This conference now goes through the media server: transmit through it.',
  mesh_required: 'This conference is peer to peer: the media server is not in use here.',
  locked: 'The call is locked: nobody new may join now.',
  stopped: 'A moderator stopped your transmission; you may turn it on again yourself.',
  no_breakouts: 'That is not an open breakout room of this room.',
}

/** The live party's machinery (one class for channels and console rooms, see LiveKind); `Channel` below is party `channel`. */
export class LiveParty implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: true }

  private meta: Meta | null = null
  private seq = 0
  private flushed = 0
  private topic = ''
  private overrides: Partial<Pick<LiveSettings, 'moderated_chat' | 'moderated_topic' | 'mute_collaborators'>> = {}
  private mutes = new Set<string>()
  private bans = new Set<string>()
  private hands = new Set<string>()
  /** Invited to speak (issue 20), for the session; and what each transmitter sends now (from their last description). */
  private speakers = new Set<string>()
  /** Audience members the lecture's `auto voice count` invited this session (the first N to join; never refilled). */
  private voiced = new Set<string>()
  private media = new Map<string, MediaState>()
  /** Stopped by a moderator (issue 20): their descriptions that send are refused until they `resume`. */
  private stopped = new Set<string>()
  /** The call is locked (issue 20): only moderators and `lockedIn` (present when it was locked) are admitted. */
  private locked = false
  private lockedIn = new Set<string>()
  /** Live breakouts (issue 20, console rooms): nick → breakout room id. */
  private breakouts: Record<string, string> = {}
  /** Transmission counts by nick (issue 20), and the starts waiting on the realm API (one per nick). */
  private tx = new Map<string, TxCount>()
  private starting = new Map<string, Promise<{ cause: LiveCause; retry: number } | null>>()
  /** How media flows this session (issue 20): the mesh, or the SFU once the room went above the mesh size. */
  private path: 'mesh' | 'sfu' = 'mesh'
  /** Transmitters' tracks on the SFU, by nick. */
  private published = new Map<string, Published>()
  private txSyncedAt = 0
  private session: LiveSession | null = null
  private endAt = 0
  /** When the leases of who is present are renewed next (0: nobody present, nothing scheduled). */
  private renewAt = 0
  private cache: { state: LiveChannelState; at: number } | null = null
  /** Per-sender send times in the last second and last send, and the room's sends in the last minute (memory only). */
  private recent = new Map<string, number[]>()
  private last = new Map<string, number>()
  private roomRecent: number[] = []

  constructor(
    readonly room: Party.Room,
    readonly kind: LiveKind = CHANNEL_KIND,
  ) {}

  private get graceMs(): number {
    const v = Number(this.room.env.LIVE_END_GRACE_MS)
    return Number.isFinite(v) && v > 0 ? v : END_GRACE_MS
  }

  async onStart() {
    const s = this.room.storage
    const got = await s.get<unknown>([
      'meta',
      'seq',
      'flushed',
      'topic',
      'overrides',
      'mutes',
      'bans',
      'hands',
      'session',
      'endAt',
      'renewAt',
      'speakers',
      'media',
      'path',
      'published',
      'voiced',
      'stopped',
      'locked',
      'lockedIn',
      'breakouts',
    ])
    this.meta = (got.get('meta') as Meta | undefined) ?? null
    this.seq = (got.get('seq') as number | undefined) ?? 0
    this.flushed = (got.get('flushed') as number | undefined) ?? 0
    this.topic = (got.get('topic') as string | undefined) ?? ''
    this.overrides = (got.get('overrides') as typeof this.overrides | undefined) ?? {}
    this.mutes = new Set((got.get('mutes') as string[] | undefined) ?? [])
    this.bans = new Set((got.get('bans') as string[] | undefined) ?? [])
    this.hands = new Set((got.get('hands') as string[] | undefined) ?? [])
    this.speakers = new Set((got.get('speakers') as string[] | undefined) ?? [])
    this.voiced = new Set((got.get('voiced') as string[] | undefined) ?? [])
    this.media = new Map((got.get('media') as [string, MediaState][] | undefined) ?? [])
    this.stopped = new Set((got.get('stopped') as string[] | undefined) ?? [])
    this.locked = (got.get('locked') as boolean | undefined) ?? false
    this.lockedIn = new Set((got.get('lockedIn') as string[] | undefined) ?? [])
    this.breakouts = (got.get('breakouts') as Record<string, string> | undefined) ?? {}
    this.path = (got.get('path') as 'mesh' | 'sfu' | undefined) ?? 'mesh'
    this.published = new Map((got.get('published') as [string, Published][] | undefined) ?? [])
    this.session = (got.get('session') as LiveSession | undefined) ?? null
    this.endAt = (got.get('endAt') as number | undefined) ?? 0
    this.renewAt = (got.get('renewAt') as number | undefined) ?? 0
    this.tx = new Map([...(await s.list<TxCount>({ prefix: 'tx:' }))].map(([k, c]) => [k.slice(3), c]))
  }

  // ---------------------------------------------------------------- joining

  async onConnect(conn: Party.Connection<ConnState>, ctx: Party.ConnectionContext) {
    const ticket = JSON.parse(ctx.request.headers.get('x-ticket') ?? '{}') as Ticket
    const sinceParam = new URL(ctx.request.url).searchParams.get('since')
    const since = sinceParam && /^\d{1,15}$/.test(sinceParam) ? Number(sinceParam) : -1
    if (!this.meta) {
      this.meta = { channelId: ticket.room, realm: ticket.realm }
      await this.room.storage.put('meta', this.meta)
    }
    if (this.meta.realm !== ticket.realm) return this.refuse(conn, 'not_found')
    const state = await this.state()
    if (state === 'missing') return this.refuse(conn, 'not_found')
    if (!state) return this.refuse(conn, 'unavailable')
    if (state.room?.refuse) return this.refuse(conn, state.room.refuse)

    const permission = state.members[ticket.nick]
    if (permission === 'banned' || this.bans.has(ticket.nick)) return this.refuse(conn, 'banned')
    const role: LiveRole = (permission as LiveRole | undefined) ?? (ticket.role === 'admin' ? 'admin' : isGuest(ticket.nick) ? 'guest' : 'participant')
    const modes = state.channel.modes
    const member = permission !== undefined || ticket.role === 'admin'
    if (!member && (modes.private === true || modes.invite_only === true || (role === 'guest' && modes.secret === true)))
      return this.refuse(conn, 'members_only')

    const present = this.presentNicks(conn.id)
    // A locked call admits nobody new: moderators, and whoever was present when it was locked (a dropped connection
    // keeps its place), excepted.
    if (this.locked && !INVITER_ROLES.has(role) && !present.has(ticket.nick) && !this.lockedIn.has(ticket.nick)) return this.refuse(conn, 'locked')
    if (!present.has(ticket.nick) && role !== 'owner' && role !== 'admin') {
      const own = Number(modes.user_limit ?? 0)
      const limit = own > 0 ? own : state.limits.max_users_per_room
      if (limit >= 0 && present.size >= limit) return this.refuse(conn, 'room_full')
      const collaborators = Number(modes.collaborator_limit ?? 0)
      if (COLLABORATOR_ROLES.has(role) && collaborators > 0) {
        const n = [...present.values()].filter((r) => COLLABORATOR_ROLES.has(r)).length
        if (n >= collaborators) return this.refuse(conn, 'collaborators_full')
      }
    }

    conn.setState({ nick: ticket.nick, name: ticket.name, role, admitted: false, since, joined: Date.now() })
    if (state.channel.has_password && !member) {
      this.send(conn, { type: 'password_required' })
      return
    }
    await this.admit(conn, state)
  }

  private refuse(conn: Party.Connection, cause: LiveCause) {
    this.send(conn, { type: 'error', cause, message: CAUSE_TEXT[cause] })
    conn.close(CLOSE_REFUSED, cause)
  }

  /** Nicks of admitted connections with their role (one entry per nick), without the connection `except`. */
  private presentNicks(except?: string): Map<string, LiveRole> {
    const out = new Map<string, LiveRole>()
    for (const c of this.room.getConnections<ConnState>()) if (c.id !== except && c.state?.admitted) out.set(c.state.nick, c.state.role)
    return out
  }

  private member(s: ConnState): LiveMember {
    const media = this.media.get(s.nick)
    return {
      nick: s.nick,
      name: s.name,
      role: s.role,
      muted: this.mutes.has(s.nick),
      hand: this.hands.has(s.nick),
      since: s.joined,
      ...(this.speakers.has(s.nick) ? { speaker: true } : {}),
      ...(media ? { media } : {}),
    }
  }

  private members(): LiveMember[] {
    const out = new Map<string, LiveMember>()
    for (const c of this.room.getConnections<ConnState>()) if (c.state?.admitted && !out.has(c.state.nick)) out.set(c.state.nick, this.member(c.state))
    return [...out.values()]
  }

  private async admit(conn: Party.Connection<ConnState>, state: LiveChannelState) {
    const s = conn.state!
    const already = this.presentNicks(conn.id).has(s.nick)
    conn.setState({ ...s, admitted: true })
    const now = Date.now()
    if (this.seq < state.last_seq) {
      this.seq = state.last_seq
      this.flushed = Math.max(this.flushed, state.last_seq)
      await this.room.storage.put({ seq: this.seq, flushed: this.flushed })
    }
    if (!this.session) this.session = { id: crypto.randomUUID(), started_at: now, chat: 0, attachments: 0, hands: 0, peak: 0 }
    this.session.peak = Math.max(this.session.peak, this.presentNicks().size)
    this.endAt = 0
    const presence = already ? null : ((await this.room.storage.get<Presence>(pdkey(s.nick))) ?? { from: null, seconds: 0 })
    this.autoVoice(s, state)
    if (!this.renewAt) this.renewAt = now + LIVE_RENEW_MS
    await this.room.storage.put({
      session: this.session,
      endAt: 0,
      renewAt: this.renewAt,
      speakers: [...this.speakers],
      voiced: [...this.voiced],
      ...(presence ? { [pdkey(s.nick)]: { ...presence, from: now } } : {}),
    })
    await this.wakeAt(this.renewAt)

    const welcome: ChannelServerMessage = {
      type: 'welcome',
      you: this.member(conn.state!),
      channel: { id: state.channel.id, name: state.channel.name },
      topic: this.topic,
      settings: this.settings(state),
      members: this.members(),
      messages: await this.replay(s.since, state),
      seq: this.seq,
      now,
    }
    this.send(conn, welcome)
    // Assigned to a live breakout (a reload, a reconnection, a late arrival): on to it again.
    const to = this.breakouts[s.nick]
    if (to) this.send(conn, { type: 'move', room: to, name: state.room?.breakouts?.find((b) => b.id === to)?.name ?? '', reason: 'breakout' })
    // Told even when the nick is already here (a reconnection whose old socket has not closed yet): its calls start
    // over on both sides at once, instead of each side finding out later from a dead connection.
    this.broadcast({ type: 'joined', member: this.member(conn.state!) }, conn.id)
  }

  /**
   * The channel's `auto voice count` (issue 20): in a lecture, the first N audience members (participants, mobile
   * members, guests) to join the live session are invited to speak by the party itself, as if a moderator had invited
   * them (presence shows `speaker`; they transmit when they choose — their microphone is not opened for them). A place
   * is not given to anyone else when one of them leaves or a moderator revokes them; the count starts over each session.
   */
  private autoVoice(s: ConnState, state: LiveChannelState) {
    const n = Number(state.channel.modes.auto_voice_count ?? 0)
    if (!(n > 0) || state.room?.type === 'meeting' || !AUDIENCE_ROLES.has(s.role)) return
    if (this.voiced.has(s.nick) || this.speakers.has(s.nick) || this.voiced.size >= n) return
    this.voiced.add(s.nick)
    this.speakers.add(s.nick)
    this.hands.delete(s.nick)
  }

  /** The messages after `since` (room storage first, then the realm API for older history), or the recent tail. */
  private async replay(since: number, state: LiveChannelState): Promise<ChatMessage[]> {
    const storage = this.room.storage
    if (since < 0) {
      const tail = [...(await storage.list<ChatMessage>({ prefix: 'm:', reverse: true, limit: TAIL })).values()].reverse()
      if (tail.length || state.channel.modes.persistent !== true) return tail
      return (await this.history(null, TAIL)) ?? []
    }
    if (since >= this.seq) return []
    const stored = [...(await storage.list<ChatMessage>({ prefix: 'm:', start: mkey(since + 1), limit: REPLAY_MAX })).values()]
    if (stored.length && stored[0].seq === since + 1) return stored
    // Older than what the room holds: persistent channels keep it in D1.
    const older = (await this.history(since, REPLAY_MAX)) ?? []
    const seen = new Set(older.map((m) => m.seq))
    return [...older, ...stored.filter((m) => !seen.has(m.seq))].slice(0, REPLAY_MAX)
  }

  private async history(after: number | null, limit: number): Promise<ChatMessage[] | null> {
    const res = await this.api('GET', `messages?${after === null ? '' : `after=${after}&`}limit=${limit}`)
    if (!res?.ok) return null
    const { items } = (await res.json()) as { items: (ChatMessage & { session_id?: string })[] }
    return items.map(({ session_id: _s, ...m }) => m)
  }

  private settings(state: LiveChannelState): LiveSettings {
    const m = state.channel.modes
    return {
      moderated_chat: this.overrides.moderated_chat ?? m.moderated_chat === true,
      moderated_topic: this.overrides.moderated_topic ?? m.moderated_topic === true,
      text_only: m.text_only === true,
      audio_only: m.audio_only === true,
      attachments: m.disable_chat_attachments !== true && !state.limits.room_attachment_disabled,
      persistent: m.persistent === true,
      max_bitrate_kbps: shareCap(bitrateCap(Number(m.max_bitrate_kbps ?? 0), Number(state.limits.max_bitrate_kbps ?? 0)), Number(m.bandwidth_share_limit ?? 0)),
      reduce_on_loss: m.bitrate_reduction === true,
      mute_collaborators: this.overrides.mute_collaborators ?? m.mute_collaborators === true,
      media_path: this.path,
      locked: this.locked,
      breakouts: this.breakouts,
    }
  }

  // ---------------------------------------------------------------- messages

  async onMessage(raw: string | ArrayBuffer | ArrayBufferView, conn: Party.Connection<ConnState>) {
    let parsed: unknown
    try {
      parsed = JSON.parse(typeof raw === 'string' ? raw : new TextDecoder().decode(raw as ArrayBuffer))
    } catch {
      parsed = undefined
    }
    const result = v.safeParse(ChannelClientMessage, parsed)
    if (!result.success) return this.error(conn, 'invalid_message', result.issues[0]?.message)
    const msg = result.output
    const s = conn.state
    if (!s) return this.error(conn, 'invalid_message')
    const state = await this.state()
    if (!state || state === 'missing') return this.error(conn, 'unavailable')
    if (!s.admitted) {
      if (msg.type !== 'password') return this.error(conn, 'password_required')
      if (!(await verifyPassword(msg.password, state.channel.password_hash))) return this.error(conn, 'wrong_password')
      return this.admit(conn, state)
    }
    switch (msg.type) {
      case 'chat':
        return this.chat(conn, s, msg, state)
      case 'hand':
        return this.hand(s, msg.raised)
      case 'topic':
        return this.setTopic(conn, s, msg.topic, state)
      case 'mod':
        return this.moderate(conn, s, msg.action, msg.nick)
      case 'settings': {
        if (!MANAGER_ROLES.has(s.role)) return this.error(conn, 'forbidden')
        if (msg.moderated_chat !== undefined) this.overrides.moderated_chat = msg.moderated_chat
        if (msg.moderated_topic !== undefined) this.overrides.moderated_topic = msg.moderated_topic
        if (msg.mute_collaborators !== undefined) this.overrides.mute_collaborators = msg.mute_collaborators
        await this.room.storage.put('overrides', this.overrides)
        this.broadcast({ type: 'settings', settings: this.settings(state) })
        return this.enforceAudio(state)
      }
      case 'password':
        return this.error(conn, 'invalid_message', 'Already admitted.')
      case 'end':
        if (s.role !== 'owner' && s.role !== 'admin') return this.error(conn, 'forbidden')
        return this.end(s.nick, true)
      case 'offer':
      case 'answer':
      case 'ice':
        return this.signal(conn, s, msg, state)
      case 'media':
        return this.narrowMedia(s, msg)
      case 'speak':
        return this.speak(conn, s, msg.nick, msg.invite, state)
      case 'lock':
        return this.lock(conn, s, msg.locked, state)
      case 'resume':
        if (this.stopped.delete(s.nick)) await this.room.storage.put('stopped', [...this.stopped])
        return
      case 'breakouts':
        return this.openBreakouts(conn, s, msg.assign)
      case 'sfu_push':
        return this.sfuPush(conn, s, msg, state)
      case 'sfu_pull':
        return this.sfuPull(conn, s, msg.from)
      case 'sfu_renegotiate':
        return this.sfuRenegotiate(conn, s, msg.sdp)
    }
  }

  // ---------------------------------------------------------------- conference signalling (issue 20)

  /**
   * Relays an offer, answer or ICE candidate to the connections of `to`, both admitted. A description that sends
   * audio or video (read from its SDP) needs the right to transmit; the sender is then a transmitter (presence shows it).
   */
  private async signal(
    conn: Party.Connection<ConnState>,
    s: ConnState,
    msg: Extract<ChannelClientMessage, { type: 'offer' | 'answer' | 'ice' }>,
    state: LiveChannelState,
  ) {
    if (msg.to === s.nick) return this.error(conn, 'invalid_message', 'Signal someone else.')
    const targets = [...this.room.getConnections<ConnState>()].filter((c) => c.state?.admitted && c.state.nick === msg.to)
    if (!targets.length) return this.error(conn, 'not_present')
    if (msg.type !== 'ice') {
      const sent = sentMedia(msg.sdp)
      if (sent.audio || sent.video) {
        // On the SFU nobody transmits over the mesh (a receive-only description still passes: it sends nothing).
        if (this.path === 'sfu') return this.error(conn, 'sfu_required')
        const refused = this.mayTransmit(s, sent, state)
        if (refused === 'transmitters_full' && this.sfuSwitchable(state)) {
          await this.switchToSfu()
          return this.error(conn, 'sfu_required')
        }
        if (refused) return this.error(conn, refused)
        if (!(await this.transmitting(conn, s, sent, state))) return
      }
    }
    const payload = JSON.stringify(
      (msg.type === 'ice'
        ? { type: 'ice', from: s.nick, candidate: msg.candidate }
        : { type: msg.type, from: s.nick, sdp: msg.sdp }) satisfies ChannelServerMessage,
    )
    for (const c of targets) c.send(payload)
  }

  /**
   * `s` sends `sent` (allowed by mayTransmit): a new transmission passes the transmission limits first (one check per
   * start, however many peers it offers to), then presence shows what they send. False when refused (they were told).
   */
  private async transmitting(conn: Party.Connection<ConnState>, s: ConnState, sent: MediaState, state: LiveChannelState): Promise<boolean> {
    if (!this.media.has(s.nick)) {
      let start = this.starting.get(s.nick)
      if (!start) {
        start = this.txStart(s.nick, state).finally(() => this.starting.delete(s.nick))
        this.starting.set(s.nick, start)
      }
      const limited = await start
      if (limited) {
        this.send(conn, { type: 'error', cause: limited.cause, message: CAUSE_TEXT[limited.cause], retry_after_ms: limited.retry })
        return false
      }
    }
    const was = this.media.get(s.nick)
    if (!was || was.audio !== sent.audio || was.video !== sent.video) await this.setMedia(s, sent)
    return true
  }

  /** Why `s` may not send `sent` here, or null: the modes, then the lecture's speakers, then the transmitter cap. */
  private mayTransmit(s: ConnState, sent: MediaState, state: LiveChannelState): LiveCause | null {
    const settings = this.settings(state)
    if (settings.text_only) return 'text_only'
    if (settings.audio_only && sent.video) return 'audio_only'
    const meeting = state.room?.type === 'meeting'
    if (this.stopped.has(s.nick)) return 'stopped'
    if (!meeting && !SPEAKER_ROLES.has(s.role) && !this.speakers.has(s.nick)) return 'not_speaker'
    if (sent.audio) {
      const audio = this.audioRefusal(s.nick, s.role, settings)
      if (audio) return audio
    }
    if (!this.media.has(s.nick)) {
      const own = Number(state.channel.modes.transmissions_limit ?? 0)
      const max = this.path === 'sfu' ? SFU_TRANSMITTERS_MAX : TRANSMITTERS_MAX
      const cap = own > 0 ? Math.min(own, max) : max
      if (this.media.size >= cap) return 'transmitters_full'
    }
    return null
  }

  private async setMedia(s: ConnState, media: MediaState | null) {
    if (media && (media.audio || media.video)) this.media.set(s.nick, media)
    else this.media.delete(s.nick)
    await this.room.storage.put('media', [...this.media])
    if (!this.media.has(s.nick)) await this.txStop(s.nick, Date.now())
    await this.unpublish(s.nick)
    this.broadcast({ type: 'member', member: this.member(s) })
  }

  // ---------------------------------------------------------------- the SFU path (issue 20)

  /** The SFU the party's environment configures (`CALLS_APP_ID`, `CALLS_APP_SECRET`, `CALLS_API_URL`), or null. */
  private sfu(): Sfu | null {
    const env = this.room.env
    return sfuFromEnv({
      CALLS_APP_ID: env.CALLS_APP_ID ? String(env.CALLS_APP_ID) : undefined,
      CALLS_APP_SECRET: env.CALLS_APP_SECRET ? String(env.CALLS_APP_SECRET) : undefined,
      CALLS_API_URL: env.CALLS_API_URL ? String(env.CALLS_API_URL) : undefined,
    })
  }

  /** A full mesh moves to the SFU when one is configured and the channel's own transmissions limit allows more. */
  private sfuSwitchable(state: LiveChannelState): boolean {
    const own = Number(state.channel.modes.transmissions_limit ?? 0)
    return this.path === 'mesh' && (own <= 0 || own > TRANSMITTERS_MAX) && this.sfu() !== null
  }

  /**
   * The room goes above the mesh size: media goes through the SFU for the rest of the live session. Everyone is told
   * (`settings`); the mesh's transmissions stop (presence drops their media, their counts pause) and the clients
   * publish again with `sfu_push`.
   */
  private async switchToSfu() {
    this.path = 'sfu'
    await this.room.storage.put('path', this.path)
    const state = await this.state()
    if (state && state !== 'missing') this.broadcast({ type: 'settings', settings: this.settings(state) })
    for (const nick of [...this.media.keys()]) {
      const s = [...this.room.getConnections<ConnState>()].find((c) => c.state?.admitted && c.state.nick === nick)?.state
      if (s) await this.setMedia(s, null)
      else {
        this.media.delete(nick)
        await this.room.storage.put('media', [...this.media])
        await this.txStop(nick, Date.now())
      }
    }
  }

  /** This connection's SFU session, made on first use (null when the SFU did not answer: the client was told). */
  private async sfuSession(conn: Party.Connection<ConnState>, sfu: Sfu, ref?: string): Promise<string | null> {
    const s = conn.state!
    if (s.sfu) return s.sfu
    try {
      const { sessionId } = await sfu.newSession()
      conn.setState({ ...conn.state!, sfu: sessionId })
      return sessionId
    } catch {
      this.error(conn, 'unavailable', 'The media server did not answer; try again.', ref)
      return null
    }
  }

  /**
   * `sfu_push`: the browser publishes its tracks. The same rules as a mesh description that sends (read from the SDP:
   * the tracks named must be what it sends), the transmission limits, then the SFU's answer goes back (`sfu_pushed`)
   * and presence shows what they send.
   */
  private async sfuPush(conn: Party.Connection<ConnState>, s: ConnState, msg: Extract<ChannelClientMessage, { type: 'sfu_push' }>, state: LiveChannelState) {
    const sfu = this.sfu()
    if (this.path !== 'sfu' || !sfu) return this.error(conn, 'mesh_required')
    const sent = sentMedia(msg.sdp)
    if (!sent.audio && !sent.video) return this.error(conn, 'invalid_message', 'A push sends audio or video.')
    if (msg.tracks.some((t) => !sent[t.kind])) return this.error(conn, 'invalid_message', 'Each track pushed is one the description sends.')
    const refused = this.mayTransmit(s, sent, state)
    if (refused) return this.error(conn, refused)
    const session = await this.sfuSession(conn, sfu)
    if (!session) return
    if (!(await this.transmitting(conn, s, sent, state))) return
    let pushed: Published['tracks']
    let sdp: string
    try {
      const answer = await sfu.push(
        session,
        msg.sdp,
        msg.tracks.map((t) => ({ mid: t.mid, trackName: `${t.kind}-${t.mid}` })),
      )
      pushed = msg.tracks.filter((t) => answer.tracks.some((a) => a.mid === t.mid && !a.error)).map((t) => ({ ...t, name: `${t.kind}-${t.mid}` }))
      if (!pushed.length || answer.description?.type !== 'answer') throw new Error('nothing published')
      sdp = answer.description.sdp
    } catch {
      await this.setMedia(s, null)
      return this.error(conn, 'unavailable', 'The media server did not take the tracks; try again.')
    }
    // A new session (another connection of theirs) replaces what they published before.
    const before = this.published.get(s.nick)
    const kept = before?.session === session ? before.tracks.filter((t) => !pushed.some((p) => p.mid === t.mid)) : []
    this.published.set(s.nick, { session, tracks: [...kept, ...pushed] })
    await this.room.storage.put('published', [...this.published])
    this.send(conn, { type: 'sfu_pushed', sdp, tracks: pushed.map(({ mid, kind }) => ({ mid, kind })) })
  }

  /** `sfu_pull`: `from`'s published tracks (those presence shows them sending) come down into this connection's session. */
  private async sfuPull(conn: Party.Connection<ConnState>, s: ConnState, from: string) {
    const sfu = this.sfu()
    if (this.path !== 'sfu' || !sfu) return this.error(conn, 'mesh_required')
    if (from === s.nick) return this.error(conn, 'invalid_message', 'Pull someone else.')
    const media = this.media.get(from)
    const pub = this.published.get(from)
    const tracks = pub?.tracks.filter((t) => media?.[t.kind]) ?? []
    if (!pub || !tracks.length) return this.error(conn, 'not_present', 'That participant transmits nothing here.', SFU_PULL_REF)
    const session = await this.sfuSession(conn, sfu, SFU_PULL_REF)
    if (!session) return
    try {
      const answer = await sfu.pull(
        session,
        tracks.map((t) => ({ sessionId: pub.session, trackName: t.name })),
      )
      const got = answer.tracks.flatMap((a) => {
        const t = tracks.find((x) => x.name === a.trackName)
        return t && a.mid && !a.error ? [{ mid: a.mid, kind: t.kind }] : []
      })
      if (answer.description?.type === 'offer') this.send(conn, { type: 'sfu_offer', from, sdp: answer.description.sdp, tracks: got })
    } catch {
      this.error(conn, 'unavailable', 'The media server did not answer; try again.', SFU_PULL_REF)
    }
  }

  /** `sfu_renegotiate`: the browser's answer to the SFU's offer. */
  private async sfuRenegotiate(conn: Party.Connection<ConnState>, s: ConnState, sdp: string) {
    const sfu = this.sfu()
    if (this.path !== 'sfu' || !sfu) return this.error(conn, 'mesh_required')
    if (!s.sfu) return this.error(conn, 'invalid_message', 'Nothing to renegotiate: pull first.')
    try {
      await sfu.renegotiate(s.sfu, sdp)
    } catch {
      this.error(conn, 'unavailable', 'The media server did not take the answer.', SFU_PULL_REF)
    }
  }

  /**
   * What presence no longer shows `nick` sending is closed on the SFU (a mute, a stop, a revoked invitation, a limit
   * run out, leaving): the SFU stops forwarding it, whatever their browser keeps sending.
   */
  private async unpublish(nick: string) {
    const pub = this.published.get(nick)
    if (!pub) return
    const media = this.media.get(nick)
    const closing = pub.tracks.filter((t) => !media?.[t.kind])
    if (!closing.length) return
    const tracks = pub.tracks.filter((t) => media?.[t.kind])
    if (tracks.length) this.published.set(nick, { ...pub, tracks })
    else this.published.delete(nick)
    await this.room.storage.put('published', [...this.published])
    await this.sfu()
      ?.close(
        pub.session,
        closing.map((t) => t.mid),
      )
      .catch(() => undefined)
  }

  /** Why `nick` may not send audio now, or null: muted by a moderator, or "mute collaborators" without an invitation. */
  private audioRefusal(nick: string, role: LiveRole, settings: LiveSettings): LiveCause | null {
    if (this.mutes.has(nick)) return 'muted'
    if (settings.mute_collaborators && role !== 'owner' && !this.speakers.has(nick)) return 'collaborators_muted'
    return null
  }

  /** After a mute, a revoked invitation or "mute collaborators": whoever may no longer send audio stops sending it. */
  private async enforceAudio(state: LiveChannelState) {
    const settings = this.settings(state)
    for (const [nick, media] of [...this.media]) {
      if (!media.audio) continue
      const s = [...this.room.getConnections<ConnState>()].find((c) => c.state?.admitted && c.state.nick === nick)?.state
      if (s && this.audioRefusal(nick, s.role, settings)) await this.setMedia(s, { audio: false, video: media.video })
    }
  }

  /** A transmitter sends less (or stops): it may narrow what it sends, never widen it (that takes a new offer). */
  private async narrowMedia(s: ConnState, msg: MediaState) {
    const was = this.media.get(s.nick)
    if (!was) return
    await this.setMedia(s, { audio: was.audio && msg.audio, video: was.video && msg.video })
  }

  /** A moderator invites `nick` to speak (their hand goes down) or revokes it (a revoked transmitter stops). */
  private async speak(conn: Party.Connection<ConnState>, s: ConnState, nick: string, invite: boolean, state: LiveChannelState) {
    if (!INVITER_ROLES.has(s.role)) return this.error(conn, 'forbidden')
    const targets = [...this.room.getConnections<ConnState>()].filter((c) => c.state?.admitted && c.state.nick === nick)
    const target = targets[0]?.state
    if (!target) return this.error(conn, 'not_present')
    if (invite) {
      this.speakers.add(nick)
      this.hands.delete(nick)
      // A moderator's new invitation lifts their stop (the invitation opens the participant's microphone).
      this.stopped.delete(nick)
    } else {
      this.speakers.delete(nick)
      if (!SPEAKER_ROLES.has(target.role)) this.media.delete(nick)
    }
    await this.room.storage.put({ speakers: [...this.speakers], hands: [...this.hands], media: [...this.media], stopped: [...this.stopped] })
    if (!this.media.has(nick)) await this.txStop(nick, Date.now())
    await this.unpublish(nick)
    this.broadcast({ type: 'member', member: this.member(target) })
    const told = JSON.stringify({ type: 'speak', invite, by: s.nick } satisfies ChannelServerMessage)
    for (const c of targets) c.send(told)
    if (!invite) await this.enforceAudio(state)
  }

  // ---------------------------------------------------------------- stop, lock, breakouts (issue 20)

  /**
   * A moderator stops `target`'s transmission: camera, screen and microphone off (presence, counts, the SFU), their
   * descriptions that send refused (`stopped`) until they `resume` themselves; a lecture's audience member loses the
   * invitation to speak (a new one is needed). They are told why (`tx_stopped`, cause `stopped`).
   */
  private async stopTransmission(s: ConnState, target: ConnState, targets: Party.Connection<ConnState>[]) {
    this.stopped.add(target.nick)
    const invited = this.speakers.delete(target.nick)
    await this.room.storage.put({ stopped: [...this.stopped], speakers: [...this.speakers] })
    await this.setMedia(target, null)
    const told = JSON.stringify({ type: 'tx_stopped', cause: 'stopped', message: CAUSE_TEXT.stopped, by: s.nick } satisfies ChannelServerMessage)
    for (const c of targets) c.send(told)
    if (invited) {
      const revoked = JSON.stringify({ type: 'speak', invite: false, by: s.nick } satisfies ChannelServerMessage)
      for (const c of targets) c.send(revoked)
    }
  }

  /** A moderator locks (whoever is present now keeps their place) or unlocks the call; everyone sees it (`settings`). */
  private async lock(conn: Party.Connection<ConnState>, s: ConnState, locked: boolean, state: LiveChannelState) {
    if (!INVITER_ROLES.has(s.role)) return this.error(conn, 'forbidden')
    this.locked = locked
    this.lockedIn = locked ? new Set(this.presentNicks().keys()) : new Set()
    await this.room.storage.put({ locked: this.locked, lockedIn: [...this.lockedIn] })
    this.broadcast({ type: 'settings', settings: this.settings(state) })
  }

  /**
   * A manager of a top-level console room opens (or, with nobody assigned, closes) live breakouts: each assigned
   * participant must be present (or already in a breakout) and each room one of this room's open breakouts (read fresh). The assigned are told
   * `move`; closing tells every breakout that had someone (a control call, party to party) to send everyone back.
   */
  private async openBreakouts(conn: Party.Connection<ConnState>, s: ConnState, assign: Record<string, string>) {
    if (!MANAGER_ROLES.has(s.role)) return this.error(conn, 'forbidden')
    this.cache = null
    const state = await this.state()
    if (!state || state === 'missing') return this.error(conn, 'unavailable')
    if (this.kind.party !== 'room' || !state.room || state.room.parent_id !== null) return this.error(conn, 'no_breakouts')
    const rooms = new Map((state.room.breakouts ?? []).map((b) => [b.id, b.name]))
    const present = this.presentNicks()
    for (const [nick, room] of Object.entries(assign)) {
      if (!rooms.has(room)) return this.error(conn, 'no_breakouts', `${CAUSE_TEXT.no_breakouts} (${room})`)
      // Present here, or away in a breakout already (reassigned from there).
      if (!present.has(nick) && !(nick in this.breakouts)) return this.error(conn, 'not_present', `${CAUSE_TEXT.not_present} (${nick})`)
    }
    const before = this.breakouts
    this.breakouts = { ...assign }
    await this.room.storage.put('breakouts', this.breakouts)
    this.broadcast({ type: 'settings', settings: this.settings(state) })
    const here = new Set<string>()
    for (const c of this.room.getConnections<ConnState>()) {
      if (!c.state?.admitted) continue
      here.add(c.state.nick)
      const to = assign[c.state.nick]
      if (to) this.send(c, { type: 'move', room: to, name: rooms.get(to) ?? '', reason: 'breakout' })
    }
    // (The stored meta, not room.id: PartyKit's room.id throws while an alarm of this room is awaiting.)
    const parent = this.meta?.channelId ?? state.channel.id
    const home = { room: parent, name: state.channel.name, reason: 'return' as const }
    const calls: Promise<boolean>[] = []
    if (!Object.keys(assign).length) {
      // Closed: every breakout that had someone sends everyone in it back here.
      for (const id of new Set(Object.values(before))) calls.push(this.controlBreakout(id, { action: 'move', parent, ...home }))
    } else {
      // Changed: who is in a breakout now (not here) and was taken out of it goes back here, or on to their new one.
      const moves = new Map<string, { to: typeof home | { room: string; name: string; reason: 'breakout' }; nicks: string[] }>()
      for (const [nick, from] of Object.entries(before)) {
        if (assign[nick] === from || here.has(nick)) continue
        const to = assign[nick] ? { room: assign[nick], name: rooms.get(assign[nick]) ?? '', reason: 'breakout' as const } : home
        const key = `${from} ${to.room}`
        const entry = moves.get(key) ?? { to, nicks: [] }
        entry.nicks.push(nick)
        moves.set(key, entry)
      }
      for (const [key, { to, nicks }] of moves) calls.push(this.controlBreakout(key.split(' ')[0], { action: 'move', parent, ...to, nicks }))
    }
    await Promise.all(calls)
  }

  /** A control call to one of this room's breakouts (its party, with a control ticket for it); false when not taken. */
  private async controlBreakout(id: string, body: LiveControl): Promise<boolean> {
    const secret = String(this.room.env.PARTY_SECRET ?? '')
    if (!secret || !this.meta) return false
    const ticket = await signTicket(secret, { party: controlParty(this.kind.party), room: id, realm: this.meta.realm, nick: 'party', name: '' })
    try {
      const res = await this.room.context.parties[this.kind.party].get(id).fetch({
        method: 'POST',
        headers: { 'x-party-ticket': ticket, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return res.ok
    } catch {
      return false
    }
  }

  /**
   * The parent room's party moves people out of this breakout (a control call): `nicks` (all when absent) are told to
   * go back to the parent or on to another of its breakouts.
   */
  private async moveOut(m: Extract<LiveControl, { action: 'move' }>): Promise<Response> {
    this.cache = null
    const state = await this.state()
    if (!state || state === 'missing' || state.room?.parent_id !== m.parent) return new Response('Not a breakout of that room.', { status: 409 })
    const payload = JSON.stringify({ type: 'move', room: m.room, name: m.name, reason: m.reason } satisfies ChannelServerMessage)
    const nicks = m.nicks ? new Set(m.nicks) : null
    let moved = 0
    for (const c of this.room.getConnections<ConnState>()) {
      if (!c.state?.admitted || (nicks && !nicks.has(c.state.nick))) continue
      c.send(payload)
      moved++
    }
    return Response.json({ moved })
  }

  // ---------------------------------------------------------------- transmission limits (issue 20)

  /** The room's transmission limits: the realm's weekly seconds for every live room, `room_tx_*` for console rooms only. */
  private txLimits(state: LiveChannelState): TxLimits {
    const l = state.limits
    const room = this.kind.party === 'room'
    return {
      weekly: typeof l.tx_weekly_seconds === 'number' ? l.tx_weekly_seconds : -1,
      days: l.tx_renewal_days > 0 ? l.tx_renewal_days : 7,
      duration: room && l.tx_duration_seconds > 0 ? l.tx_duration_seconds : 0,
      interval: room && l.tx_interval_seconds > 0 ? l.tx_interval_seconds : 0,
    }
  }

  /** `nick`'s count now: a new renewal period starts from nothing; a rested stint (room_tx_interval) starts over. */
  private txCount(nick: string, now: number, limits: TxLimits): TxCount {
    const period = txPeriod(now, limits.days).start
    let c = this.tx.get(nick) ?? { d1: false, period, here: 0, elsewhere: 0, from: null, stint: 0, lastStop: 0 }
    if (c.period !== period) c = { ...c, period, here: 0, elsewhere: 0, from: c.from === null ? null : Math.max(c.from, period) }
    if (c.from === null && c.stint > 0 && now - c.lastStop >= limits.interval * 1000) c = { ...c, stint: 0 }
    return c
  }

  /** The limit that runs out first for `c` (ms left, possibly ≤ 0, and when transmitting is possible again), or null. */
  private txLeft(c: TxCount, now: number, limits: TxLimits): { cause: LiveCause; ms: number; retry: number } | null {
    const running = c.from === null ? 0 : now - c.from
    let out: { cause: LiveCause; ms: number; retry: number } | null = null
    if (limits.weekly >= 0)
      out = { cause: 'tx_weekly', ms: limits.weekly * 1000 - (c.here + running + c.elsewhere * 1000), retry: txPeriod(now, limits.days).end - now }
    if (limits.duration > 0) {
      const ms = limits.duration * 1000 - (c.stint + running)
      // After the stop the stint rests room_tx_interval seconds (none: a new transmission may start at once).
      const retry = c.from === null ? c.lastStop + limits.interval * 1000 - now : Math.max(0, ms) + limits.interval * 1000
      if (!out || ms < out.ms) out = { cause: 'tx_duration', ms, retry: Math.max(1, retry) }
    }
    return out
  }

  private async putTx(nick: string, c: TxCount) {
    this.tx.set(nick, c)
    await this.room.storage.put(txkey(nick), c)
  }

  /**
   * A transmission starts: refused (with when it is possible again) when a limit is used up — the weekly count is
   * first brought up to date from the realm API (what the user transmitted in the realm's other live rooms, and this
   * room's count should this room have lost it); otherwise the count runs and the party wakes when it runs out.
   */
  private async txStart(nick: string, state: LiveChannelState): Promise<{ cause: LiveCause; retry: number } | null> {
    const limits = this.txLimits(state)
    if (limits.weekly < 0 && limits.duration <= 0) return null
    let c = this.txCount(nick, Date.now(), limits)
    if (limits.weekly >= 0) {
      const answer = await this.txSync(c.period, { [nick]: Math.ceil(c.here / 1000) })
      const got = answer?.usage[nick]
      if (!got) return { cause: 'unavailable', retry: RETRY_MS }
      c = this.txCount(nick, Date.now(), limits)
      c = { ...c, d1: true, here: Math.max(c.here, got.here * 1000), elsewhere: got.elsewhere }
    }
    const now = Date.now()
    const left = this.txLeft(c, now, limits)
    if (left && left.ms <= 0) {
      await this.putTx(nick, c)
      return { cause: left.cause, retry: left.retry }
    }
    await this.putTx(nick, { ...c, from: now })
    if (left) await this.wakeAt(now + left.ms)
    return null
  }

  /** A transmission stops: its stretch is added to the counts (and handed to the realm API when it counts them). */
  private async txStop(nick: string, now: number) {
    const c = this.tx.get(nick)
    if (!c || c.from === null) return
    const ms = Math.max(0, now - Math.max(c.from, c.period))
    const next = { ...c, here: c.here + ms, stint: c.stint + ms, from: null, lastStop: now }
    await this.putTx(nick, next)
    if (next.d1 && !(await this.txSync(next.period, { [nick]: Math.ceil(next.here / 1000) }))) {
      await this.room.storage.put('txDirty', true)
      await this.wakeAt(now + RETRY_MS)
    }
  }

  /** The realm API's count (`POST …/tx`): this room's seconds per nick for the period; null when it did not take them. */
  private async txSync(period: number, usage: Record<string, number>): Promise<LiveTxAnswer | null> {
    const res = await this.api('POST', 'tx', { period_start: period, usage })
    if (!res?.ok) return null
    return (await res.json()) as LiveTxAnswer
  }

  /**
   * On the alarm: a transmitter whose limit ran out is stopped (told `tx_stopped`, presence updated, its offers refused
   * from now on); the running counts go to the realm API every LIVE_RENEW_MS (and what other rooms counted comes
   * back), as do stopped counts it did not take. False when the realm API must be tried again.
   */
  private async txTick(): Promise<boolean> {
    const running = [...this.tx].filter(([, c]) => c.from !== null)
    const dirty = (await this.room.storage.get<boolean>('txDirty')) === true
    if (!running.length && !dirty) return true
    const state = await this.state()
    if (!state || state === 'missing') return !dirty
    const limits = this.txLimits(state)
    const now = Date.now()
    for (const [nick, c0] of running) {
      const c = this.txCount(nick, now, limits)
      if (c !== c0) await this.putTx(nick, c)
      const left = this.txLeft(c, now, limits)
      if (!left || left.ms > 0) continue
      const conns = [...this.room.getConnections<ConnState>()].filter((x) => x.state?.admitted && x.state.nick === nick)
      if (conns[0]?.state) await this.setMedia(conns[0].state, null)
      else await this.txStop(nick, now)
      const told = JSON.stringify({
        type: 'tx_stopped',
        cause: left.cause,
        message: CAUSE_TEXT[left.cause],
        retry_after_ms: left.retry,
      } satisfies ChannelServerMessage)
      for (const x of conns) x.send(told)
    }
    const counted = [...this.tx].filter(([, c]) => c.d1 && (dirty || (c.from !== null && now - this.txSyncedAt >= LIVE_RENEW_MS)))
    if (!counted.length) return true
    const byPeriod = new Map<number, Record<string, number>>()
    for (const [nick, c] of counted) {
      const usage = byPeriod.get(c.period) ?? {}
      usage[nick] = Math.ceil((c.here + (c.from === null ? 0 : now - c.from)) / 1000)
      byPeriod.set(c.period, usage)
    }
    for (const [period, usage] of byPeriod) {
      for (let i = 0, nicks = Object.keys(usage); i < nicks.length; i += 100) {
        const answer = await this.txSync(period, Object.fromEntries(nicks.slice(i, i + 100).map((n) => [n, usage[n]])))
        if (!answer) return false
        for (const [nick, got] of Object.entries(answer.usage)) {
          const c = this.tx.get(nick)
          if (c && c.period === period) await this.putTx(nick, { ...c, elsewhere: got.elsewhere })
        }
      }
    }
    this.txSyncedAt = now
    await this.room.storage.put('txDirty', false)
    return true
  }

  /** Wakes the party when the first running count runs out, and for the next sync of running counts. */
  private async txSchedule() {
    const running = [...this.tx].filter(([, c]) => c.from !== null)
    if (!running.length) return
    const state = this.cache?.state ?? (await this.state())
    if (!state || state === 'missing') return
    const limits = this.txLimits(state)
    const now = Date.now()
    let at = Infinity
    for (const [nick] of running) {
      const left = this.txLeft(this.txCount(nick, now, limits), now, limits)
      if (left) at = Math.min(at, now + Math.max(0, left.ms))
      if (this.tx.get(nick)?.d1) at = Math.min(at, this.txSyncedAt + LIVE_RENEW_MS)
    }
    if (Number.isFinite(at)) await this.wakeAt(Math.max(at, now + 50))
  }

  private async chat(conn: Party.Connection<ConnState>, s: ConnState, msg: Extract<ChannelClientMessage, { type: 'chat' }>, state: LiveChannelState) {
    const storage = this.room.storage
    const known = await storage.get<number>(idkey(s.nick, msg.id))
    if (known !== undefined) return this.send(conn, { type: 'ack', id: msg.id, seq: known })
    const settings = this.settings(state)
    if (this.mutes.has(s.nick)) return this.error(conn, 'muted', undefined, msg.id)
    if (settings.moderated_chat && !OPERATOR_ROLES.has(s.role)) return this.error(conn, 'moderated', undefined, msg.id)
    if (settings.audio_only) return this.error(conn, 'audio_only', undefined, msg.id)
    if (msg.attachment) {
      if (!settings.attachments) return this.error(conn, 'attachments_disabled', undefined, msg.id)
      if (settings.text_only && /^(audio|video)\//i.test(msg.attachment.mime)) return this.error(conn, 'text_only', undefined, msg.id)
    }
    const now = Date.now()
    const day = daykey(s.nick, now)
    const sentToday = (await storage.get<number>(day)) ?? 0
    const slow = this.rate(s, state, now, sentToday)
    if (slow) return this.send(conn, { type: 'slow_down', cause: slow.cause, retry_after_ms: slow.retry, ref: msg.id })

    const filter = (text: string) =>
      state.channel.modes.word_filter === false
        ? text
        : filterText(text, state.word_filter.sentences, { on: state.word_filter.links, exempt: state.word_filter.exempt }).text
    const message: ChatMessage = {
      seq: this.seq + 1,
      id: msg.id,
      nick: s.nick,
      name: s.name,
      role: s.role,
      text: filter(msg.text),
      ...(msg.attachment ? { attachment: { ...msg.attachment, name: filter(msg.attachment.name) } } : {}),
      at: now,
    }
    this.seq = message.seq
    if (this.session) {
      this.session.chat++
      if (message.attachment) this.session.attachments++
    }
    // Stored before anyone hears of it: a restarted room has it, and the flush to D1 finds it.
    await storage.put({
      seq: this.seq,
      [mkey(message.seq)]: { ...message, session_id: this.session?.id ?? '' },
      [idkey(s.nick, msg.id)]: message.seq,
      [day]: sentToday + 1,
      ...(this.session ? { session: this.session } : {}),
    })
    this.broadcast({ type: 'chat', message })
    this.send(conn, { type: 'ack', id: msg.id, seq: message.seq })
    await this.wakeAt(now + FLUSH_DELAY_MS)
  }

  /** The realm's message limits (seed 002 §3): per second, minimum interval, per day, and the room's drop rate per minute. */
  private rate(s: ConnState, state: LiveChannelState, now: number, sentToday: number): { cause: SlowDownCause; retry: number } | null {
    const l = state.limits
    const window = (this.recent.get(s.nick) ?? []).filter((t) => now - t < 1000)
    this.roomRecent = this.roomRecent.filter((t) => now - t < 60_000)
    const lastAt = this.last.get(s.nick)
    let out: { cause: SlowDownCause; retry: number } | null = null
    if (l.msg_min_interval_seconds > 0 && lastAt !== undefined && now - lastAt < l.msg_min_interval_seconds * 1000)
      out = { cause: 'min_interval', retry: l.msg_min_interval_seconds * 1000 - (now - lastAt) }
    else if (l.msg_per_second > 0 && window.length >= l.msg_per_second) out = { cause: 'per_second', retry: 1000 - (now - window[0]) }
    else if (l.msg_per_day >= 0 && sentToday >= l.msg_per_day)
      out = { cause: 'per_day', retry: Date.parse(new Date(now).toISOString().slice(0, 10)) + 86_400_000 - now }
    else if (l.msg_drop_rate > 0 && !OPERATOR_ROLES.has(s.role) && this.roomRecent.length >= l.msg_drop_rate)
      out = { cause: 'drop_rate', retry: 60_000 - (now - this.roomRecent[0]) }
    if (out) {
      this.recent.set(s.nick, window)
      return { cause: out.cause, retry: Math.max(1, Math.ceil(out.retry)) }
    }
    window.push(now)
    this.recent.set(s.nick, window)
    this.last.set(s.nick, now)
    this.roomRecent.push(now)
    return null
  }

  private async hand(s: ConnState, raised: boolean) {
    if (raised === this.hands.has(s.nick)) return
    if (raised) {
      this.hands.add(s.nick)
      if (this.session) this.session.hands++
    } else this.hands.delete(s.nick)
    await this.room.storage.put({ hands: [...this.hands], session: this.session })
    this.broadcast({ type: 'member', member: this.member(s) })
  }

  private async setTopic(conn: Party.Connection<ConnState>, s: ConnState, topic: string, state: LiveChannelState) {
    if (this.settings(state).moderated_topic && !OPERATOR_ROLES.has(s.role)) return this.error(conn, 'moderated')
    if (s.role === 'guest') return this.error(conn, 'forbidden')
    this.topic =
      state.channel.modes.word_filter === false
        ? topic
        : filterText(topic, state.word_filter.sentences, { on: state.word_filter.links, exempt: state.word_filter.exempt }).text
    await this.room.storage.put('topic', this.topic)
    this.broadcast({ type: 'topic', topic: this.topic, by: s.nick })
  }

  private async moderate(conn: Party.Connection<ConnState>, s: ConnState, action: Extract<ChannelClientMessage, { type: 'mod' }>['action'], nick: string) {
    const allowed = action === 'ban' || action === 'promote' ? MANAGER_ROLES : action === 'stop' ? INVITER_ROLES : OPERATOR_ROLES
    if (!allowed.has(s.role)) return this.error(conn, 'forbidden')
    const targets = [...this.room.getConnections<ConnState>()].filter((c) => c.state?.admitted && c.state.nick === nick)
    const target = targets[0]?.state
    if (!target) return this.error(conn, 'not_present')
    if (target.role === 'owner' || target.nick === s.nick) return this.error(conn, 'forbidden')
    switch (action) {
      case 'mute':
      case 'unmute': {
        if (action === 'mute') this.mutes.add(nick)
        else this.mutes.delete(nick)
        await this.room.storage.put('mutes', [...this.mutes])
        this.broadcast({ type: 'member', member: this.member(target) })
        // A muted transmitter's audio stops here too (their offers with audio are refused until unmuted).
        const media = this.media.get(nick)
        if (action === 'mute' && media?.audio) await this.setMedia(target, { audio: false, video: media.video })
        return
      }
      case 'remove':
        return this.expel(targets, 'removed')
      case 'stop':
        return this.stopTransmission(s, target, targets)
      case 'ban': {
        if (!isGuest(nick) && this.kind.persistRoles) {
          const res = await this.api('PUT', `member/${encodeURIComponent(nick)}`, { permission: 'banned', by: s.nick })
          if (!res?.ok) return this.error(conn, 'unavailable')
          this.cache = null
        }
        this.bans.add(nick)
        await this.room.storage.put('bans', [...this.bans])
        return this.expel(targets, 'banned')
      }
      case 'promote': {
        if (isGuest(nick)) return this.error(conn, 'guest')
        if (this.kind.persistRoles) {
          const res = await this.api('PUT', `member/${encodeURIComponent(nick)}`, { permission: 'operator', by: s.nick })
          if (!res?.ok) return this.error(conn, 'unavailable')
          this.cache = null
        }
        for (const c of targets) c.setState({ ...c.state!, role: 'operator' })
        return this.broadcast({ type: 'member', member: this.member(targets[0].state!) })
      }
    }
  }

  private expel(targets: Party.Connection<ConnState>[], cause: 'removed' | 'banned') {
    for (const c of targets) {
      this.send(c, { type: 'removed', cause })
      c.close(CLOSE_REMOVED, cause)
    }
  }

  // ---------------------------------------------------------------- the realm API's control

  /** `POST` with the realm API's control ticket (LiveControl): `end` ends the live session for everyone. */
  async onRequest(request: Party.Request) {
    if (request.method !== 'POST') return new Response('Not found.', { status: 404 })
    const ticket = await verifyTicket(
      String(this.room.env.PARTY_SECRET ?? ''),
      request.headers.get('x-party-ticket'),
      controlParty(this.kind.party),
      roomIdOf(request),
    )
    if (!ticket) return new Response('A valid control ticket is required.', { status: 401 })
    if (this.meta && this.meta.realm !== ticket.realm) return new Response('Not found.', { status: 404 })
    const body = v.safeParse(LiveControl, await request.json().catch(() => null))
    if (!body.success) return Response.json({ errors: [{ field: 'action', cause: 'invalid', value: null, message: body.issues[0]?.message }] }, { status: 400 })
    if (body.output.action === 'move') return this.moveOut(body.output)
    const live = this.session !== null
    this.cache = null
    await this.end(body.output.by, true)
    return Response.json({ ended: live })
  }

  // ---------------------------------------------------------------- leaving, ending, flushing

  async onClose(conn: Party.Connection<ConnState>) {
    answerClose(conn)
    await this.left(conn)
  }

  async onError(conn: Party.Connection<ConnState>) {
    await this.left(conn)
  }

  private async left(conn: Party.Connection<ConnState>) {
    const s = conn.state
    if (!s?.admitted) return
    conn.setState({ ...s, admitted: false })
    const present = this.presentNicks(conn.id)
    if (present.has(s.nick)) return
    const now = Date.now()
    const presence = await this.room.storage.get<Presence>(pdkey(s.nick))
    const away = presence?.from != null ? { [pdkey(s.nick)]: { from: null, seconds: presence.seconds + Math.round((now - presence.from) / 1000) } } : {}
    this.hands.delete(s.nick)
    this.media.delete(s.nick)
    await this.room.storage.put({ hands: [...this.hands], media: [...this.media], ...away })
    await this.txStop(s.nick, now)
    await this.unpublish(s.nick)
    this.broadcast({ type: 'left', nick: s.nick })
    await this.presence({ left: [s.nick] })
    if (present.size === 0 && this.session) {
      this.endAt = now + this.graceMs
      await this.room.storage.put('endAt', this.endAt)
      await this.wakeAt(this.endAt)
    }
  }

  /** Ends the live session: everyone is told and closed (when `close`), its metrics are handed to the realm API. */
  private async end(by: string, close: boolean) {
    const session = this.session
    if (!session) return
    const now = Date.now()
    const durations: Record<string, number> = {}
    const presences = await this.room.storage.list<Presence>({ prefix: 'pd:' })
    for (const [key, p] of presences) durations[key.slice(3)] = p.seconds + (p.from === null ? 0 : Math.round((now - p.from) / 1000))
    await this.deleteKeys([...presences.keys()])
    const ended: LiveSessionEnd = {
      id: session.id,
      topic: this.topic,
      started_at: session.started_at,
      ended_at: now,
      ended_by: by,
      peak_participants: session.peak,
      live_durations: durations,
      chat_count: session.chat,
      attachment_count: session.attachments,
      hand_raise_count: session.hands,
    }
    for (const nick of this.media.keys()) await this.txStop(nick, now)
    const published = [...this.published.keys()]
    this.media.clear()
    for (const nick of published) await this.unpublish(nick)
    this.path = 'mesh'
    this.session = null
    this.endAt = 0
    this.hands.clear()
    this.mutes.clear()
    this.speakers.clear()
    this.voiced.clear()
    this.media.clear()
    this.stopped.clear()
    this.locked = false
    this.lockedIn.clear()
    this.breakouts = {}
    this.overrides = {}
    await this.room.storage.put({
      session: null,
      endAt: 0,
      hands: [],
      mutes: [],
      speakers: [],
      voiced: [],
      media: [],
      path: 'mesh',
      published: [],
      stopped: [],
      locked: false,
      lockedIn: [],
      breakouts: {},
      overrides: {},
      [`end:${ended.id}`]: ended,
    })
    if (close) {
      const gone = [...this.presentNicks().keys()]
      const payload = JSON.stringify({ type: 'ended' } satisfies ChannelServerMessage)
      for (const c of this.room.getConnections<ConnState>()) {
        c.setState(c.state ? { ...c.state, admitted: false } : c.state)
        c.send(payload)
        c.close(CLOSE_ENDED, 'ended')
      }
      if (gone.length) await this.presence({ left: gone })
    }
    await this.wakeAt(Date.now())
  }

  async onAlarm() {
    const retry = async () => this.wakeAt(Date.now() + RETRY_MS)
    if (!this.meta) return
    await this.renew()
    if (!(await this.txTick())) await retry()
    // A room closed (or past its window) while live: its session ends for everyone (the room API also tells it at once).
    if (this.session && this.kind.party === 'room') {
      const state = await this.state()
      if (state && state !== 'missing' && state.room?.refuse) await this.end('', true)
    }
    if (!(await this.flush())) return retry()
    if (this.endAt && Date.now() >= this.endAt && this.presentNicks().size === 0) await this.end('', false)
    for (const [key, ended] of await this.room.storage.list<LiveSessionEnd>({ prefix: 'end:' })) {
      const res = await this.api('POST', 'session', ended)
      if (!res?.ok) return retry()
      await this.room.storage.delete(key)
    }
    if (!(await this.flush())) return retry()
    await this.trim()
    if (this.endAt) await this.wakeAt(this.endAt)
    if (this.renewAt) await this.wakeAt(this.renewAt)
    await this.txSchedule()
  }

  /**
   * When due, renews the leases of who is present (one call for the room), then every LIVE_RENEW_MS while anyone is
   * here (RETRY_MS while the realm API fails); with nobody present nothing more is scheduled.
   */
  private async renew() {
    const now = Date.now()
    if (!this.renewAt || now < this.renewAt) return
    const present = [...this.presentNicks().keys()]
    if (!present.length) this.renewAt = 0
    else this.renewAt = now + ((await this.presence({ present })) ? LIVE_RENEW_MS : RETRY_MS)
    await this.room.storage.put('renewAt', this.renewAt)
    if (this.renewAt) await this.wakeAt(this.renewAt)
  }

  /** The party's presence call (renewals, leaves); false when the realm API did not take it. */
  private async presence(body: LivePresence): Promise<boolean> {
    const res = await this.api('POST', 'presence', body)
    return res?.ok === true
  }

  /** Writes the messages not yet in D1 in batches; false when the realm API did not take one (retried later). */
  private async flush(): Promise<boolean> {
    while (this.flushed < this.seq) {
      const batch = [
        ...(await this.room.storage.list<ChatMessage & { session_id: string }>({ prefix: 'm:', start: mkey(this.flushed + 1), limit: FLUSH_BATCH })).values(),
      ]
      if (!batch.length) {
        this.flushed = this.seq
        break
      }
      const res = await this.api('POST', 'messages', { messages: batch })
      if (!res?.ok) return false
      this.flushed = batch[batch.length - 1].seq
      await this.room.storage.put('flushed', this.flushed)
    }
    await this.room.storage.put('flushed', this.flushed)
    return true
  }

  /**
   * Once a session is over and its chat is in D1, the room keeps only what reconnects need: nothing of a
   * non-persistent channel (its next session starts empty), the last REPLAY_MAX messages of a persistent one.
   */
  private async trim() {
    if (this.session) return
    const state = await this.state()
    if (!state || state === 'missing') return
    const keep = state.channel.modes.persistent === true ? REPLAY_MAX : 0
    const keys = [...(await this.room.storage.list({ prefix: 'm:', end: mkey(Math.min(this.flushed, this.seq - keep) + 1) })).keys()]
    const ids = [...(await this.room.storage.list({ prefix: 'id:' })).keys()]
    await this.deleteKeys(keys)
    if (!keep) await this.deleteKeys(ids)
  }

  /** Deletes keys in the storage API's chunks of 128. */
  private async deleteKeys(keys: string[]) {
    for (let i = 0; i < keys.length; i += 128) await this.room.storage.delete(keys.slice(i, i + 128))
  }

  private async wakeAt(at: number) {
    const current = await this.room.storage.getAlarm()
    if (current === null || current > at) await this.room.storage.setAlarm(at)
  }

  // ---------------------------------------------------------------- realm API

  /** The channel's state from the realm API (cached); 'missing' when the realm has no such channel, null when unreachable. */
  private async state(): Promise<LiveChannelState | 'missing' | null> {
    if (this.cache && Date.now() - this.cache.at < STATE_TTL_MS) return this.cache.state
    const res = await this.api('GET', 'state')
    if (res?.status === 404) return 'missing'
    if (!res?.ok) return this.cache?.state ?? null
    this.cache = { state: (await res.json()) as LiveChannelState, at: Date.now() }
    return this.cache.state
  }

  /** A call to `/api/channel/live/{id}/…` with the party's service ticket; null when the API cannot be reached. */
  private async api(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Response | null> {
    const meta = this.meta
    const env = this.room.env
    if (!meta || !env.PARTY_SECRET || !env.REALM_API_URL) return null
    const ticket = await signTicket(String(env.PARTY_SECRET), {
      party: this.kind.service,
      room: meta.channelId,
      realm: meta.realm,
      nick: 'party',
      name: `${this.kind.party} party`,
    })
    try {
      return await fetch(`${String(env.REALM_API_URL).replace(/\/$/, '')}/api/${this.kind.api}/${encodeURIComponent(meta.channelId)}/${path}`, {
        method,
        headers: { 'x-party-ticket': ticket, 'x-api-realm': meta.realm, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch {
      return null
    }
  }

  // ---------------------------------------------------------------- sending

  private send(conn: Party.Connection, message: ChannelServerMessage) {
    conn.send(JSON.stringify(message))
  }

  private error(conn: Party.Connection, cause: LiveCause, message?: string, ref?: string) {
    this.send(conn, { type: 'error', cause, message: message ?? CAUSE_TEXT[cause], ...(ref ? { ref } : {}) })
  }

  /** Serialized once, sent to every admitted connection (but `except`). */
  private broadcast(message: ChannelServerMessage, except?: string) {
    const payload = JSON.stringify(message)
    for (const c of this.room.getConnections<ConnState>()) if (c.id !== except && c.state?.admitted) c.send(payload)
  }
}

/** Party `channel`: one room per channel. */
export default class Channel extends LiveParty {
  static onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    return admitTicket(request, lobby, 'channel')
  }
}

Channel satisfies Party.Worker
