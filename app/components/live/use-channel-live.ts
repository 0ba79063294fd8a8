import PartySocket from 'partysocket'
import { useCallback, useEffect, useRef, useState } from 'react'
import { TicketError, ticketQuery } from './party-ticket'
import {
  SFU_PULL_REF,
  type ChannelClientMessage,
  type ChannelServerMessage,
  type ChatMessage,
  type LiveCause,
  type LiveMember,
  type LiveSettings,
  type SlowDownCause,
} from '../../../party/channel-protocol'

/**
 * The browser side of the channel party (party/channel.ts): connects with a fresh ticket from `/party/ticket` on
 * every (re)connection, sends the last chat sequence seen (`since`) so nothing is missed, resends unacknowledged
 * messages with their ids (the party acknowledges a resend once), and keeps presence, chat, hands, topic, settings.
 */
export type LiveStatus = 'connecting' | 'open' | 'reconnecting' | 'password' | 'signin' | 'refused' | 'removed' | 'ended'

export interface PendingMessage {
  id: string
  text: string
}

export interface LiveState {
  status: LiveStatus
  /** Why the party or the ticket endpoint refused (translated as `live.cause.<cause>`). */
  cause: LiveCause | null
  you: LiveMember | null
  channel: { id: string; name: string } | null
  members: LiveMember[]
  messages: ChatMessage[]
  pending: PendingMessage[]
  topic: string
  settings: LiveSettings | null
  /** The last refusal of something the user did (chat, topic, moderation), or a slow-down. */
  /** `until` (epoch ms): when the refused thing is possible again, where the party said (transmission limits). */
  notice: { kind: 'error'; cause: LiveCause; until?: number } | { kind: 'slow_down'; cause: SlowDownCause; until: number } | null
  /** The realm's STUN/TURN servers for the conference mesh, from the ticket (issue 20); empty: host candidates only. */
  iceServers: RTCIceServer[]
  /** The party sent the visitor to another room (issue 20 live breakouts: into a breakout, or back to its parent). */
  move: { room: string; name: string; reason: 'breakout' | 'return' } | null
}

/** The messages about peer connections (never sent late: see `send`). */
const SIGNALS = new Set<ChannelClientMessage['type']>(['offer', 'answer', 'ice', 'media'])

const initial: LiveState = {
  status: 'connecting',
  cause: null,
  you: null,
  channel: null,
  members: [],
  messages: [],
  pending: [],
  topic: '',
  settings: null,
  notice: null,
  iceServers: [],
  move: null,
}

type TicketAnswer = { ticket: string; host: string; room: string; ice_servers?: RTCIceServer[] }

/** The live parties the views join: a channel (party/channel.ts) or a console room or breakout (party/room.ts). */
export type LiveParty = 'channel' | 'room'

async function fetchTicket(party: LiveParty, id: string, guest: string | null): Promise<TicketAnswer> {
  const q = new URLSearchParams({ party, room: id })
  if (guest !== null) q.set('guest', guest)
  const res = await fetch(`/party/ticket?${q}`, { headers: { accept: 'application/json' } })
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { errors?: { cause: string; message?: string }[]; reason?: string } | null
    throw new TicketError(res.status, body?.errors?.[0]?.cause ?? body?.reason ?? 'unavailable', body?.errors?.[0]?.message ?? '')
  }
  return res.json()
}

const upsert = (members: LiveMember[], m: LiveMember) =>
  members.some((x) => x.nick === m.nick) ? members.map((x) => (x.nick === m.nick ? m : x)) : [...members, m]

function mergeMessages(current: ChatMessage[], incoming: ChatMessage[]): ChatMessage[] {
  if (!incoming.length) return current
  const bySeq = new Map(current.map((m) => [m.seq, m]))
  for (const m of incoming) bySeq.set(m.seq, m)
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-500)
}

const TICKET_CAUSES: Record<string, LiveCause> = {
  banned: 'banned',
  members_only: 'members_only',
  not_found: 'not_found',
  limit: 'environment_full',
  closed: 'closed',
  not_active: 'not_active',
}

/**
 * What the participant is told when the realm API refuses a ticket: `limit` is the realm's users-per-environment cap,
 * or its users per room when the message says so (a room's ticket applies both); a room closed or outside its window.
 */
export function ticketRefusal(cause: string, message = ''): LiveCause {
  if (cause === 'limit' && message === 'validation.live.max_room') return 'room_full'
  return TICKET_CAUSES[cause] ?? 'unavailable'
}

/** `guest`: the name a guest joins with (public channels); null joins as the signed-in user. `party`: whose room `channelId` names. */
export function useChannelLive(channelId: string, guest: string | null, enabled = true, party: LiveParty = 'channel') {
  const [state, setState] = useState<LiveState>(initial)
  const socket = useRef<PartySocket | null>(null)
  const lastSeq = useRef(-1)
  const pending = useRef<PendingMessage[]>([])
  /** Who also hears every message from the party (the conference's mesh: signalling, presence, reconnections). */
  const listeners = useRef(new Set<(msg: ChannelServerMessage) => void>())

  useEffect(() => {
    if (!enabled) return
    let stopped = false
    let ws: PartySocket | null = null
    setState(initial)
    lastSeq.current = -1
    const stop = (patch: Partial<LiveState>) => {
      stopped = true
      ws?.close()
      setState((s) => ({ ...s, ...patch }))
    }
    const onTicketError = (err: unknown) => {
      if (stopped) return
      if (err instanceof TicketError && err.status === 401) return stop({ status: 'signin' })
      const cause = err instanceof TicketError ? ticketRefusal(err.cause, err.detail) : 'unavailable'
      stop({ status: 'refused', cause })
    }
    fetchTicket(party, channelId, guest)
      .then((first) => {
        if (stopped) return
        if (first.ice_servers?.length) setState((s) => ({ ...s, iceServers: first.ice_servers ?? [] }))
        ws = new PartySocket({
          host: first.host,
          party,
          room: first.room,
          maxRetries: 20,
          // Each (re)connection presents a valid ticket and the last sequence seen.
          query: ticketQuery(
            first.ticket,
            async () => (await fetchTicket(party, channelId, guest)).ticket,
            onTicketError,
            () => (lastSeq.current >= 0 ? lastSeq.current : null),
          ),
        })
        socket.current = ws
        ws.addEventListener('close', () => {
          if (!stopped) setState((s) => ({ ...s, status: s.status === 'connecting' ? 'connecting' : 'reconnecting' }))
        })
        ws.addEventListener('message', (event) => {
          const msg = JSON.parse(String(event.data)) as ChannelServerMessage
          for (const listen of listeners.current) listen(msg)
          switch (msg.type) {
            case 'welcome': {
              // The welcome brings everything up to the room's sequence (after `since`, or the recent tail).
              lastSeq.current = Math.max(lastSeq.current, msg.seq)
              setState((s) => ({
                ...s,
                status: 'open',
                cause: null,
                you: msg.you,
                channel: msg.channel,
                members: msg.members,
                messages: mergeMessages(s.messages, msg.messages),
                topic: msg.topic,
                settings: msg.settings,
              }))
              // What was sent but not acknowledged goes again with the same ids (the party acks a resend once).
              for (const p of pending.current) ws?.send(JSON.stringify({ type: 'chat', id: p.id, text: p.text } satisfies ChannelClientMessage))
              return
            }
            case 'password_required':
              return setState((s) => ({ ...s, status: 'password' }))
            case 'joined':
            case 'member':
              return setState((s) => ({ ...s, members: upsert(s.members, msg.member), you: s.you?.nick === msg.member.nick ? msg.member : s.you }))
            case 'left':
              return setState((s) => ({ ...s, members: s.members.filter((m) => m.nick !== msg.nick) }))
            case 'chat':
              lastSeq.current = Math.max(lastSeq.current, msg.message.seq)
              return setState((s) => ({ ...s, messages: mergeMessages(s.messages, [msg.message]) }))
            case 'ack':
              pending.current = pending.current.filter((p) => p.id !== msg.id)
              return setState((s) => ({ ...s, pending: pending.current }))
            case 'topic':
              return setState((s) => ({ ...s, topic: msg.topic }))
            case 'settings':
              return setState((s) => ({ ...s, settings: msg.settings }))
            case 'slow_down':
              if (msg.ref) pending.current = pending.current.filter((p) => p.id !== msg.ref)
              return setState((s) => ({
                ...s,
                pending: pending.current,
                notice: { kind: 'slow_down', cause: msg.cause, until: Date.now() + msg.retry_after_ms },
              }))
            case 'error':
              // A refused pull through the SFU (a transmitter who stopped meanwhile) is the conference panel's business.
              if (msg.ref === SFU_PULL_REF) return
              if (msg.ref) pending.current = pending.current.filter((p) => p.id !== msg.ref)
              return setState((s) => {
                // Before the welcome an error is the door's answer: the party closes; do not knock again.
                if (s.status === 'connecting' || s.status === 'reconnecting') {
                  stopped = true
                  ws?.close()
                  return { ...s, status: 'refused', cause: msg.cause }
                }
                const until = msg.retry_after_ms === undefined ? {} : { until: Date.now() + msg.retry_after_ms }
                return { ...s, pending: pending.current, notice: { kind: 'error', cause: msg.cause, ...until } }
              })
            case 'tx_stopped':
              return setState((s) => ({
                ...s,
                notice: { kind: 'error', cause: msg.cause, ...(msg.retry_after_ms === undefined ? {} : { until: Date.now() + msg.retry_after_ms }) },
              }))
            case 'move':
              return setState((s) => ({ ...s, move: { room: msg.room, name: msg.name, reason: msg.reason } }))
            case 'removed':
              return stop({ status: 'removed', cause: msg.cause === 'banned' ? 'banned' : 'removed' })
            case 'ended':
              return stop({ status: 'ended', cause: 'ended' })
          }
        })
      })
      .catch(onTicketError)
    return () => {
      stopped = true
      ws?.close()
      socket.current = null
    }
  }, [channelId, guest, enabled, party])

  const send = useCallback((message: ChannelClientMessage) => {
    const ws = socket.current
    if (!ws) return
    // Signalling belongs to the connections of this socket's life: the socket would queue it while down and deliver it
    // stale after reconnecting, when every peer connection starts over anyway (the welcome resets the mesh).
    if (ws.readyState !== WebSocket.OPEN && SIGNALS.has(message.type)) return
    ws.send(JSON.stringify(message))
  }, [])

  const say = useCallback(
    (text: string) => {
      const id = crypto.randomUUID()
      pending.current = [...pending.current, { id, text }]
      setState((s) => ({ ...s, pending: pending.current, notice: null }))
      send({ type: 'chat', id, text })
    },
    [send],
  )

  const dismiss = useCallback(() => setState((s) => ({ ...s, notice: null })), [])

  /** Hears every message the party sends (after this hook's own handling); returns the unsubscribe. */
  const subscribe = useCallback((listen: (msg: ChannelServerMessage) => void) => {
    listeners.current.add(listen)
    return () => {
      listeners.current.delete(listen)
    }
  }, [])

  return { state, send, say, dismiss, subscribe }
}
