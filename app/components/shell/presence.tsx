import { useLocation } from '@remix-run/react'
import PartySocket from 'partysocket'
import { useEffect, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import type { PresenceMember, PresenceServerMessage } from '../../../party/presence-protocol'

type Status = 'connecting' | 'open' | 'unavailable'

async function fetchTicket(): Promise<{ ticket: string; host: string; room: string }> {
  const res = await fetch('/party/ticket?party=presence', { headers: { accept: 'application/json' } })
  if (!res.ok) throw new Error(`ticket ${res.status}`)
  return res.json()
}

/** Staff of this realm connected to the console now, live over PartyKit (a fresh ticket on every connect). */
export function Presence({ self }: { self: string }) {
  const { t } = useTranslation()
  const location = useLocation()
  const [status, setStatus] = useState<Status>('connecting')
  const [members, setMembers] = useState<PresenceMember[]>([])
  const [socket, setSocket] = useState<PartySocket | null>(null)

  useEffect(() => {
    let closed = false
    let ws: PartySocket | null = null
    fetchTicket()
      .then((first) => {
        if (closed) return
        let pending: string | null = first.ticket
        ws = new PartySocket({
          host: first.host,
          party: 'presence',
          room: first.room,
          maxRetries: 5,
          // Each (re)connection presents a ticket that is still valid.
          query: async () => {
            const ticket = pending ?? (await fetchTicket()).ticket
            pending = null
            return { ticket }
          },
        })
        ws.addEventListener('open', () => setStatus('open'))
        ws.addEventListener('close', () => setStatus((s) => (s === 'open' ? 'connecting' : s)))
        ws.addEventListener('error', () => setStatus('unavailable'))
        ws.addEventListener('message', (event) => {
          const message = JSON.parse(String(event.data)) as PresenceServerMessage
          if (message.type === 'presence') setMembers(message.members)
        })
        setSocket(ws)
      })
      .catch(() => !closed && setStatus('unavailable'))
    return () => {
      closed = true
      ws?.close()
    }
  }, [])

  useEffect(() => {
    if (socket && status === 'open') socket.send(JSON.stringify({ type: 'here', path: location.pathname }))
  }, [socket, status, location.pathname])

  const others = members.filter((m, i, all) => all.findIndex((x) => x.nick === m.nick) === i)
  return (
    <section className="card" aria-labelledby="presence-title" data-presence-status={status}>
      <h2 id="presence-title">{t('presence.title')}</h2>
      {status === 'connecting' ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> {t('presence.connecting')}
        </p>
      ) : status === 'unavailable' ? (
        <p role="status">{t('presence.unavailable')}</p>
      ) : others.length <= 1 ? (
        <p>{t('presence.empty')}</p>
      ) : null}
      {status === 'open' && others.length > 0 ? (
        <ul className="presence-list" aria-live="polite">
          {others.map((m) => (
            <li key={m.nick}>
              <span className="avatar" aria-hidden="true">
                {m.name.slice(0, 1).toUpperCase()}
              </span>
              {m.nick === self ? t('presence.you', { name: m.name }) : m.name}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}
