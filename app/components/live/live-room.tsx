import { useEffect, useRef, useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { CHAT_MAX, INVITER_ROLES, MANAGER_ROLES, OPERATOR_ROLES, TOPIC_MAX, type LiveMember, type ModAction } from '../../../party/channel-protocol'
import { Conference } from './conference'
import { Recorder } from './recorder'
import { useChannelLive, type LiveParty, type LiveState } from './use-channel-live'

/**
 * A channel's or a console room's live room (issue 13; `party` says which: both parties speak party/channel-protocol.ts): the console's live view for owners and operators (`view="console"`: who is here
 * with moderation, raised hands, chat, topic, session settings, end) and the participant view (`view="participant"`:
 * chat, raise or lower a hand, the topic). Connecting, reconnecting, refused and ended states are announced.
 */
export function LiveRoom({
  channelId,
  party = 'channel',
  guest = null,
  view,
  signinHref,
  onName,
  onMove,
  breakoutRooms,
}: {
  /** The channel's id, or the console room's (`party="room"`). */
  channelId: string
  party?: LiveParty
  guest?: string | null
  view: 'console' | 'participant'
  signinHref?: string
  /** Told the channel's (or room's) name once the party has admitted the visitor (the page's heading shows it). */
  onName?: (name: string) => void
  /**
   * Issue 20 live breakouts: the party sent the visitor to another room (the participant page reconnects there).
   * Without it (the console) a `return` is shown with a link to the parent room's live view.
   */
  onMove?: (move: NonNullable<LiveState['move']>) => void
  /** The console room's open breakout rooms (console view of a top-level room): the moderator's breakouts panel. */
  breakoutRooms?: { id: string; name: string }[]
}) {
  const { t, i18n } = useTranslation()
  const { state, send, say, dismiss, subscribe } = useChannelLive(channelId, guest, true, party)
  const name = state.channel?.name
  useEffect(() => {
    if (name) onName?.(name)
  }, [name, onName])
  const move = state.move
  useEffect(() => {
    if (move) onMove?.(move)
  }, [move, onMove])
  const operator = state.you ? OPERATOR_ROLES.has(state.you.role) : false
  const manager = state.you ? MANAGER_ROLES.has(state.you.role) : false

  if (state.status === 'signin')
    return (
      <div className="alert alert-info" role="status">
        <p>{t('live.signin_needed')}</p>
        {signinHref ? (
          <a className="btn btn-primary" href={signinHref}>
            {t('live.signin')}
          </a>
        ) : null}
      </div>
    )
  if (state.status === 'refused' || state.status === 'removed' || state.status === 'ended')
    return (
      <div className={`alert ${state.status === 'ended' ? 'alert-info' : 'alert-error'}`} role="alert" data-live-status={state.status}>
        <p>{t(`live.cause.${state.cause ?? 'unavailable'}`)}</p>
      </div>
    )
  if (state.status === 'password') return <PasswordPrompt state={state} onSubmit={(password) => send({ type: 'password', password })} />
  if (state.status === 'connecting')
    return (
      <p role="status" data-live-status="connecting">
        <span className="spinner" aria-hidden="true" /> {t('live.connecting')}
      </p>
    )

  const hands = state.members.filter((m) => m.hand)
  return (
    <div className={`live-room live-${view}`} data-live-status={state.status}>
      <div className="live-status" role="status">
        {state.status === 'reconnecting' ? (
          <>
            <span className="spinner" aria-hidden="true" /> {t('live.reconnecting')}
          </>
        ) : (
          <span className="badge badge-success">{t('live.connected')}</span>
        )}{' '}
        {state.you ? <span>{t('live.you_are', { name: state.you.name, role: t(`live.role.${state.you.role}`) })}</span> : null}
        {state.settings?.locked ? (
          <>
            {' '}
            <span className="badge badge-warning" data-live-locked>
              {t('live.locked')}
            </span>
          </>
        ) : null}
      </div>
      {move && !onMove && move.reason === 'return' ? (
        <div className="alert alert-info" role="status">
          <p>{t('live.breakouts.closed_here')}</p>
          <a className="btn" href={`/room/live/${encodeURIComponent(move.room)}`}>
            {t('live.breakouts.to_main', { name: move.name })}
          </a>
        </div>
      ) : null}
      <Topic
        state={state}
        canEdit={!state.settings?.moderated_topic ? state.you?.role !== 'guest' : operator}
        onSet={(topic) => send({ type: 'topic', topic })}
      />
      {state.notice ? (
        <div className={`alert ${state.notice.kind === 'slow_down' ? 'alert-warning' : 'alert-error'}`} role="alert">
          <p>{state.notice.kind === 'slow_down' ? t(`live.slow_down.${state.notice.cause}`) : t(`live.cause.${state.notice.cause}`)}</p>
          {state.notice.kind === 'error' && state.notice.until ? (
            <p>{t('live.available_again', { when: new Date(state.notice.until).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }) })}</p>
          ) : null}
          <button type="button" className="btn btn-link" onClick={dismiss}>
            {t('live.dismiss')}
          </button>
        </div>
      ) : null}
      <Conference state={state} send={send} subscribe={subscribe} />
      <Recorder party={party} id={channelId} state={state} />
      <div className="live-grid">
        <section className="card live-chat" aria-labelledby="live-chat-title">
          <h2 id="live-chat-title">{t('live.chat')}</h2>
          <ChatLog state={state} />
          <Composer state={state} operator={operator} onSay={say} />
        </section>
        <aside className="live-side">
          {view === 'participant' && state.you ? (
            <button
              type="button"
              className={`btn ${state.you.hand ? 'btn-primary' : ''}`}
              aria-pressed={state.you.hand}
              onClick={() => send({ type: 'hand', raised: !state.you!.hand })}
            >
              {state.you.hand ? t('live.lower_hand') : t('live.raise_hand')}
            </button>
          ) : null}
          {view === 'console' ? (
            <section className="card" aria-labelledby="live-hands-title">
              <h2 id="live-hands-title">{t('live.hands', { count: hands.length })}</h2>
              {hands.length ? (
                <ul className="live-hands" aria-live="polite">
                  {hands.map((m) => (
                    <li key={m.nick}>
                      {m.name}{' '}
                      {state.you && INVITER_ROLES.has(state.you.role) ? (
                        // Issue 20: the moderator invites a raised hand to speak (the party lowers the hand).
                        <button type="button" className="btn" onClick={() => send({ type: 'speak', nick: m.nick, invite: true })}>
                          {t('live.invite_speak', { name: m.name })}
                        </button>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : (
                <p>{t('live.no_hands')}</p>
              )}
            </section>
          ) : null}
          <People
            state={state}
            moderate={view === 'console' && operator}
            manager={manager}
            inviter={view === 'console' && state.you !== null && INVITER_ROLES.has(state.you.role)}
            onMod={(action, nick) => send({ type: 'mod', action, nick })}
            onStop={(nick) => send({ type: 'mod', action: 'stop', nick })}
          />
          {view === 'console' && party === 'room' && manager && breakoutRooms ? (
            <Breakouts state={state} rooms={breakoutRooms} onAssign={(assign) => send({ type: 'breakouts', assign })} />
          ) : null}
          {view === 'console' && manager && state.settings ? (
            <section className="card live-settings" aria-labelledby="live-settings-title">
              <h2 id="live-settings-title">{t('live.settings')}</h2>
              <label className="field-check">
                <input type="checkbox" checked={state.settings.moderated_chat} onChange={(e) => send({ type: 'settings', moderated_chat: e.target.checked })} />
                {t('live.moderated_chat')}
              </label>
              <label className="field-check">
                <input
                  type="checkbox"
                  checked={state.settings.moderated_topic}
                  onChange={(e) => send({ type: 'settings', moderated_topic: e.target.checked })}
                />
                {t('live.moderated_topic')}
              </label>
              <label className="field-check">
                <input type="checkbox" checked={state.settings.locked} onChange={(e) => send({ type: 'lock', locked: e.target.checked })} />
                {t('live.lock')}
              </label>
              <label className="field-check">
                <input
                  type="checkbox"
                  checked={state.settings.mute_collaborators}
                  onChange={(e) => send({ type: 'settings', mute_collaborators: e.target.checked })}
                />
                {t('live.mute_collaborators')}
              </label>
              {state.you?.role === 'owner' || state.you?.role === 'admin' ? (
                <button
                  type="button"
                  className="btn"
                  onClick={() => {
                    if (window.confirm(t('live.end_confirm'))) send({ type: 'end' })
                  }}
                >
                  {t('live.end')}
                </button>
              ) : null}
            </section>
          ) : null}
        </aside>
      </div>
    </div>
  )
}

function PasswordPrompt({ state, onSubmit }: { state: LiveState; onSubmit: (password: string) => void }) {
  const { t } = useTranslation()
  const [password, setPassword] = useState('')
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (password) onSubmit(password)
  }
  return (
    <form className="card live-password" onSubmit={submit}>
      <p>{t('live.password_required')}</p>
      {state.notice?.kind === 'error' ? (
        <p className="alert alert-error" role="alert">
          {t(`live.cause.${state.notice.cause}`)}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="live-password">{t('live.password')}</label>
        <input id="live-password" type="password" autoComplete="off" value={password} maxLength={64} onChange={(e) => setPassword(e.target.value)} required />
      </div>
      <button type="submit" className="btn btn-primary">
        {t('live.enter')}
      </button>
    </form>
  )
}

function Topic({ state, canEdit, onSet }: { state: LiveState; canEdit: boolean; onSet: (topic: string) => void }) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState<string | null>(null)
  if (draft !== null)
    return (
      <form
        className="live-topic"
        onSubmit={(e) => {
          e.preventDefault()
          onSet(draft)
          setDraft(null)
        }}
      >
        <div className="field">
          <label htmlFor="live-topic-input">{t('live.topic')}</label>
          <input id="live-topic-input" value={draft} maxLength={TOPIC_MAX} onChange={(e) => setDraft(e.target.value)} />
        </div>
        <button type="submit" className="btn btn-primary">
          {t('live.save_topic')}
        </button>{' '}
        <button type="button" className="btn" onClick={() => setDraft(null)}>
          {t('live.cancel')}
        </button>
      </form>
    )
  return (
    <p className="live-topic" aria-live="polite">
      <strong>{t('live.topic')}:</strong> <span data-live-topic>{state.topic || t('live.no_topic')}</span>{' '}
      {canEdit ? (
        <button type="button" className="btn btn-link" onClick={() => setDraft(state.topic)}>
          {t('live.edit_topic')}
        </button>
      ) : null}
    </p>
  )
}

function ChatLog({ state }: { state: LiveState }) {
  const { t, i18n } = useTranslation()
  const end = useRef<HTMLLIElement>(null)
  // A block body: newer browsers answer scrollIntoView with a promise, and an effect may return only a cleanup.
  useEffect(() => {
    void end.current?.scrollIntoView?.({ block: 'nearest' })
  }, [state.messages.length, state.pending.length])
  const time = new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' })
  if (!state.messages.length && !state.pending.length) return <p className="live-empty">{t('live.no_messages')}</p>
  return (
    <ol className="live-log" role="log" aria-live="polite" aria-label={t('live.chat')}>
      {state.messages.map((m) => (
        <li key={m.seq} data-seq={m.seq}>
          <span className="live-author">{m.name}</span>
          {OPERATOR_ROLES.has(m.role) ? <span className="badge">{t(`live.role.${m.role}`)}</span> : null}{' '}
          <time dateTime={new Date(m.at).toISOString()}>{time.format(m.at)}</time>
          <p>{m.text}</p>
          {m.attachment ? (
            <a href={m.attachment.url} target="_blank" rel="noopener noreferrer">
              {t('live.attachment', { name: m.attachment.name })}
            </a>
          ) : null}
        </li>
      ))}
      {state.pending.map((p) => (
        <li key={p.id} className="live-pending">
          <span className="live-author">{state.you?.name}</span> <span className="badge">{t('live.sending')}</span>
          <p>{p.text}</p>
        </li>
      ))}
      <li ref={end} aria-hidden="true" className="live-end" />
    </ol>
  )
}

function Composer({ state, operator, onSay }: { state: LiveState; operator: boolean; onSay: (text: string) => void }) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const blocked = state.settings?.audio_only
    ? t('live.cause.audio_only')
    : state.settings?.moderated_chat && !operator
      ? t('live.cause.moderated')
      : state.you?.muted
        ? t('live.cause.muted')
        : null
  const post = () => {
    const value = text.trim()
    if (!value || blocked) return
    onSay(value)
    setText('')
  }
  return (
    <form
      className="live-composer"
      onSubmit={(e) => {
        e.preventDefault()
        post()
      }}
    >
      <div className="field">
        <label htmlFor="live-message">{t('live.message')}</label>
        <textarea
          id="live-message"
          rows={2}
          maxLength={CHAT_MAX}
          value={text}
          disabled={Boolean(blocked)}
          aria-describedby={blocked ? 'live-blocked' : undefined}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault()
              post()
            }
          }}
        />
        {blocked ? (
          <p id="live-blocked" className="field-hint">
            {blocked}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn btn-primary" disabled={Boolean(blocked) || state.status !== 'open'}>
        {t('live.send')}
      </button>
    </form>
  )
}

function People({
  state,
  moderate,
  manager,
  inviter,
  onMod,
  onStop,
}: {
  state: LiveState
  moderate: boolean
  manager: boolean
  /** May stop a transmission (issue 20: revokes the invitation to speak; the participant's client stops sending). */
  inviter: boolean
  onMod: (action: ModAction, nick: string) => void
  onStop: (nick: string) => void
}) {
  const { t } = useTranslation()
  const act = (action: ModAction, m: LiveMember) => {
    if (action === 'ban' && !window.confirm(t('live.ban_confirm', { name: m.name }))) return
    onMod(action, m.nick)
  }
  return (
    <section className="card" aria-labelledby="live-people-title">
      <h2 id="live-people-title">{t('live.present', { count: state.members.length })}</h2>
      <ul className="live-people">
        {state.members.map((m) => (
          <li key={m.nick} data-nick={m.nick}>
            <span className="avatar" aria-hidden="true">
              {m.name.slice(0, 1).toUpperCase()}
            </span>
            <span>
              {m.nick === state.you?.nick ? t('live.you', { name: m.name }) : m.name} <span className="badge">{t(`live.role.${m.role}`)}</span>
              {m.hand ? <span className="badge badge-warning">{t('live.hand_raised')}</span> : null}
              {m.muted ? <span className="badge badge-error">{t('live.muted')}</span> : null}
              {m.speaker ? <span className="badge badge-success">{t('live.speaker')}</span> : null}
              {m.media ? <span className="badge badge-info">{t('live.media.transmitting')}</span> : null}
            </span>
            {moderate && m.nick !== state.you?.nick && m.role !== 'owner' ? (
              <span className="live-actions" role="group" aria-label={t('live.actions_for', { name: m.name })}>
                <button type="button" className="btn" onClick={() => act(m.muted ? 'unmute' : 'mute', m)}>
                  {m.muted ? t('live.unmute') : t('live.mute')}
                </button>
                {inviter && (m.media || m.speaker) ? (
                  <button type="button" className="btn" onClick={() => onStop(m.nick)}>
                    {t('live.media.stop_for', { name: m.name })}
                  </button>
                ) : null}
                <button type="button" className="btn" onClick={() => act('remove', m)}>
                  {t('live.remove')}
                </button>
                {manager ? (
                  <>
                    <button type="button" className="btn" onClick={() => act('ban', m)}>
                      {t('live.ban')}
                    </button>
                    {!OPERATOR_ROLES.has(m.role) && m.role !== 'guest' ? (
                      <button type="button" className="btn" onClick={() => act('promote', m)}>
                        {t('live.promote')}
                      </button>
                    ) : null}
                  </>
                ) : null}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  )
}

/**
 * Issue 20 live breakouts (console view of a top-level room, managers): assign the participants present to the room's
 * open breakout rooms and open them (the party moves each one there), change the assignment, or close them (everyone
 * comes back). The breakout rooms themselves are the room's nested rooms, made in the room's edit screen.
 */
function Breakouts({
  state,
  rooms,
  onAssign,
}: {
  state: LiveState
  rooms: { id: string; name: string }[]
  onAssign: (assign: Record<string, string>) => void
}) {
  const { t } = useTranslation()
  const open = state.settings?.breakouts ?? {}
  const live = Object.keys(open).length > 0
  const [draft, setDraft] = useState<Record<string, string>>({})
  const people = state.members.filter((m) => m.nick !== state.you?.nick && !INVITER_ROLES.has(m.role))
  const chosen = (nick: string) => draft[nick] ?? open[nick] ?? ''
  // The names of who was seen here: those away in a breakout are listed by name, not by nick.
  const names = useRef(new Map<string, string>())
  for (const m of state.members) names.current.set(m.nick, m.name)
  const assign = () => {
    const out: Record<string, string> = {}
    for (const m of people) if (chosen(m.nick)) out[m.nick] = chosen(m.nick)
    // Who was assigned but left keeps their place in the breakout.
    for (const [nick, room] of Object.entries(open)) if (!people.some((m) => m.nick === nick) && !(nick in draft)) out[nick] = room
    onAssign(out)
    setDraft({})
  }
  const roomName = (id: string) => rooms.find((r) => r.id === id)?.name ?? id
  return (
    <section className="card live-breakouts" aria-labelledby="live-breakouts-title">
      <h2 id="live-breakouts-title">{t('live.breakouts.title')}</h2>
      {live ? (
        <p role="status">
          <span className="badge badge-success">{t('live.breakouts.open')}</span>
        </p>
      ) : null}
      {!rooms.length ? (
        <p className="live-empty">{t('live.breakouts.no_rooms')}</p>
      ) : !people.length && !live ? (
        <p className="live-empty">{t('live.breakouts.nobody')}</p>
      ) : (
        <>
          <ul className="live-breakout-assign">
            {people.map((m) => (
              <li key={m.nick} className="field">
                <label htmlFor={`live-breakout-${m.nick}`}>{m.name}</label>
                <select
                  id={`live-breakout-${m.nick}`}
                  className="input"
                  value={chosen(m.nick)}
                  onChange={(e) => setDraft((d) => ({ ...d, [m.nick]: e.target.value }))}
                >
                  <option value="">{t('live.breakouts.main_room')}</option>
                  {rooms.map((r) => (
                    <option key={r.id} value={r.id}>
                      {r.name}
                    </option>
                  ))}
                </select>
              </li>
            ))}
            {Object.entries(open)
              .filter(([nick]) => !people.some((m) => m.nick === nick))
              .map(([nick, room]) => (
                <li key={nick}>{t('live.breakouts.in_breakout', { name: names.current.get(nick) ?? nick, room: roomName(room) })}</li>
              ))}
          </ul>
          <div className="live-media-actions">
            <button type="button" className="btn btn-primary" onClick={assign} disabled={!live && !people.some((m) => chosen(m.nick))}>
              {live ? t('live.breakouts.update') : t('live.breakouts.start')}
            </button>
            {live ? (
              <button type="button" className="btn" onClick={() => onAssign({})}>
                {t('live.breakouts.close')}
              </button>
            ) : null}
          </div>
          {live ? (
            <ul className="live-breakout-links">
              {[...new Set(Object.values(open))].map((id) => (
                <li key={id}>
                  <a href={`/room/live/${encodeURIComponent(id)}`} target="_blank" rel="noopener">
                    {t('live.breakouts.visit', { room: roomName(id) })}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </>
      )}
    </section>
  )
}
