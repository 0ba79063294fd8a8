import type * as Party from 'partykit/server'
import * as v from 'valibot'
import { LIVE_RENEW_MS, type LiveChannelState, type LivePresence, type LiveSessionEnd } from '#shared/schemas/channel-live'
import { filterText } from '#shared/word-filter'
import { verifyPassword } from '../worker/lib/password'
import {
  CLOSE_ENDED,
  CLOSE_REFUSED,
  CLOSE_REMOVED,
  COLLABORATOR_ROLES,
  ChannelClientMessage,
  MANAGER_ROLES,
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

const STATE_TTL_MS = 5_000
const FLUSH_DELAY_MS = 500
const RETRY_MS = 5_000
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

const mkey = (seq: number) => `m:${String(seq).padStart(12, '0')}`
const idkey = (nick: string, id: string) => `id:${nick}:${id}`
const daykey = (nick: string, now: number) => `day:${new Date(now).toISOString().slice(0, 10)}:${nick}`
const pdkey = (nick: string) => `pd:${nick}`
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
}

export default class Channel implements Party.Server {
  readonly options: Party.ServerOptions = { hibernate: true }

  private meta: Meta | null = null
  private seq = 0
  private flushed = 0
  private topic = ''
  private overrides: Partial<Pick<LiveSettings, 'moderated_chat' | 'moderated_topic'>> = {}
  private mutes = new Set<string>()
  private bans = new Set<string>()
  private hands = new Set<string>()
  private session: LiveSession | null = null
  private endAt = 0
  /** When the leases of who is present are renewed next (0: nobody present, nothing scheduled). */
  private renewAt = 0
  private cache: { state: LiveChannelState; at: number } | null = null
  /** Per-sender send times in the last second and last send, and the room's sends in the last minute (memory only). */
  private recent = new Map<string, number[]>()
  private last = new Map<string, number>()
  private roomRecent: number[] = []

  constructor(readonly room: Party.Room) {}

  static async onBeforeConnect(request: Party.Request, lobby: Party.Lobby) {
    const ticket = await verifyTicket(String(lobby.env.PARTY_SECRET ?? ''), new URL(request.url).searchParams.get('ticket'), 'channel', lobby.id)
    if (!ticket) return new Response('A valid ticket is required.', { status: 401 })
    request.headers.set('x-ticket', JSON.stringify(ticket))
    return request
  }

  async onStart() {
    const s = this.room.storage
    const got = await s.get<unknown>(['meta', 'seq', 'flushed', 'topic', 'overrides', 'mutes', 'bans', 'hands', 'session', 'endAt', 'renewAt'])
    this.meta = (got.get('meta') as Meta | undefined) ?? null
    this.seq = (got.get('seq') as number | undefined) ?? 0
    this.flushed = (got.get('flushed') as number | undefined) ?? 0
    this.topic = (got.get('topic') as string | undefined) ?? ''
    this.overrides = (got.get('overrides') as typeof this.overrides | undefined) ?? {}
    this.mutes = new Set((got.get('mutes') as string[] | undefined) ?? [])
    this.bans = new Set((got.get('bans') as string[] | undefined) ?? [])
    this.hands = new Set((got.get('hands') as string[] | undefined) ?? [])
    this.session = (got.get('session') as LiveSession | undefined) ?? null
    this.endAt = (got.get('endAt') as number | undefined) ?? 0
    this.renewAt = (got.get('renewAt') as number | undefined) ?? 0
  }

  // ---------------------------------------------------------------- joining

  async onConnect(conn: Party.Connection<ConnState>, ctx: Party.ConnectionContext) {
    const ticket = JSON.parse(ctx.request.headers.get('x-ticket') ?? '{}') as Ticket
    const sinceParam = new URL(ctx.request.url).searchParams.get('since')
    const since = sinceParam && /^\d{1,15}$/.test(sinceParam) ? Number(sinceParam) : -1
    if (!this.meta) {
      this.meta = { channelId: this.room.id, realm: ticket.realm }
      await this.room.storage.put('meta', this.meta)
    }
    if (this.meta.realm !== ticket.realm) return this.refuse(conn, 'not_found')
    const state = await this.state()
    if (state === 'missing') return this.refuse(conn, 'not_found')
    if (!state) return this.refuse(conn, 'unavailable')

    const permission = state.members[ticket.nick]
    if (permission === 'banned' || this.bans.has(ticket.nick)) return this.refuse(conn, 'banned')
    const role: LiveRole = (permission as LiveRole | undefined) ?? (ticket.role === 'admin' ? 'admin' : isGuest(ticket.nick) ? 'guest' : 'participant')
    const modes = state.channel.modes
    const member = permission !== undefined || ticket.role === 'admin'
    if (!member && (modes.private === true || modes.invite_only === true || (role === 'guest' && modes.secret === true)))
      return this.refuse(conn, 'members_only')

    const present = this.presentNicks(conn.id)
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
    return { nick: s.nick, name: s.name, role: s.role, muted: this.mutes.has(s.nick), hand: this.hands.has(s.nick), since: s.joined }
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
    if (!this.renewAt) this.renewAt = now + LIVE_RENEW_MS
    await this.room.storage.put({
      session: this.session,
      endAt: 0,
      renewAt: this.renewAt,
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
    if (!already) this.broadcast({ type: 'joined', member: this.member(conn.state!) }, conn.id)
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
        await this.room.storage.put('overrides', this.overrides)
        return this.broadcast({ type: 'settings', settings: this.settings(state) })
      }
      case 'password':
        return this.error(conn, 'invalid_message', 'Already admitted.')
      case 'end':
        if (s.role !== 'owner' && s.role !== 'admin') return this.error(conn, 'forbidden')
        return this.end(s.nick, true)
    }
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
    const allowed = action === 'ban' || action === 'promote' ? MANAGER_ROLES : OPERATOR_ROLES
    if (!allowed.has(s.role)) return this.error(conn, 'forbidden')
    const targets = [...this.room.getConnections<ConnState>()].filter((c) => c.state?.admitted && c.state.nick === nick)
    const target = targets[0]?.state
    if (!target) return this.error(conn, 'not_present')
    if (target.role === 'owner' || target.nick === s.nick) return this.error(conn, 'forbidden')
    switch (action) {
      case 'mute':
      case 'unmute':
        if (action === 'mute') this.mutes.add(nick)
        else this.mutes.delete(nick)
        await this.room.storage.put('mutes', [...this.mutes])
        return this.broadcast({ type: 'member', member: this.member(target) })
      case 'remove':
        return this.expel(targets, 'removed')
      case 'ban': {
        if (!isGuest(nick)) {
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
        const res = await this.api('PUT', `member/${encodeURIComponent(nick)}`, { permission: 'operator', by: s.nick })
        if (!res?.ok) return this.error(conn, 'unavailable')
        this.cache = null
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

  // ---------------------------------------------------------------- leaving, ending, flushing

  async onClose(conn: Party.Connection<ConnState>) {
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
    await this.room.storage.put({ hands: [...this.hands], ...away })
    this.broadcast({ type: 'left', nick: s.nick })
    await this.presence({ left: [s.nick] })
    if (present.size === 0 && this.session) {
      this.endAt = now + END_GRACE_MS
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
    this.session = null
    this.endAt = 0
    this.hands.clear()
    this.mutes.clear()
    this.overrides = {}
    await this.room.storage.put({ session: null, endAt: 0, hands: [], mutes: [], overrides: {}, [`end:${ended.id}`]: ended })
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
      party: 'channel-api',
      room: meta.channelId,
      realm: meta.realm,
      nick: 'party',
      name: 'channel party',
    })
    try {
      return await fetch(`${String(env.REALM_API_URL).replace(/\/$/, '')}/api/channel/live/${encodeURIComponent(meta.channelId)}/${path}`, {
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

Channel satisfies Party.Worker
