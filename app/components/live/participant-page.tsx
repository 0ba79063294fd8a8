import { Form } from '@remix-run/react'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { Icon } from '~/components/ui/icon'
import type { LiveParticipantData } from '~/server/live-participant.server'
import { LiveLinks } from './live-links'
import { LiveRoom } from './live-room'
import type { LiveParty } from './use-channel-live'

/**
 * The participant view of a channel or a console room (`party`): the live room once signed in (or as a guest, on a
 * public channel), else the mobile-web sign-in and the other ways in. The heading is the realm's name and, once the
 * party admitted the visitor, the channel's or room's name.
 */
export function LiveParticipantPage({ d, party }: { d: LiveParticipantData; party: LiveParty }) {
  const { t } = useTranslation()
  const [guest, setGuest] = useState<string | null>(null)
  const [name, setName] = useState('')
  const [asGuest, setAsGuest] = useState(false)
  const [title, setTitle] = useState<string | null>(null)
  /**
   * Issue 20 live breakouts: the room the page is connected to — the link's room, or the breakout the party sent the
   * participant to (the URL stays the main room's: a reload joins it and its party sends them on again).
   */
  const [moved, setMoved] = useState<{ room: string; name: string; reason: 'breakout' | 'return' } | null>(null)
  const roomId = moved?.reason === 'breakout' ? moved.room : d.id
  const onMove = useCallback((m: { room: string; name: string; reason: 'breakout' | 'return' }) => {
    setTitle(null)
    setMoved(m)
  }, [])
  return (
    <main className="live-public" id="main">
      <header className="live-public-header">
        <div>
          {d.realm ? <p className="live-realm">{d.realm}</p> : null}
          <h1>{title ?? t(party === 'room' ? 'pages.room.live' : 'pages.public.live')}</h1>
        </div>
        {d.session === 'mobile' && d.me ? (
          <Form method="post" action={`${d.here}?intent=signout`} className="live-account">
            <span>{t('live.signed_in_as', { name: d.me.name || d.me.nick })}</span>
            <button type="submit" className="btn">
              <Icon name="logout" /> {t('mobile.feed.signout')}
            </button>
          </Form>
        ) : null}
      </header>
      <LiveLinks live={d.live} />
      {moved ? (
        <p className="alert alert-info" role="status" data-live-moved={moved.reason}>
          {moved.reason === 'breakout' ? t('live.breakouts.moved_in', { room: moved.name }) : t('live.breakouts.moved_back')}
        </p>
      ) : null}
      {d.session !== null || guest !== null ? (
        <LiveRoom
          key={roomId}
          channelId={roomId}
          onMove={party === 'room' ? onMove : undefined}
          party={party}
          onName={setTitle}
          guest={guest}
          view="participant"
          // A mobile session that ended is cleared by this page's loader, which then offers the sign-in again.
          signinHref={d.session === 'mobile' ? d.here : d.consoleSigninHref}
        />
      ) : (
        <div className="live-join">
          <MobileSigninForm action={`${d.here}?intent=signin`} title={t('live.member_signin')} />
          <section className="card live-join-other" aria-labelledby="live-join-title">
            <h2 id="live-join-title">{t('live.other_ways')}</h2>
            {asGuest ? (
              <form
                onSubmit={(e) => {
                  e.preventDefault()
                  if (name.trim().length >= 2) setGuest(name.trim())
                }}
              >
                <div className="field">
                  <label htmlFor="live-guest-name">{t('live.guest_name')}</label>
                  <input
                    id="live-guest-name"
                    value={name}
                    minLength={2}
                    maxLength={40}
                    required
                    autoComplete="nickname"
                    onChange={(e) => setName(e.target.value)}
                    aria-describedby="live-guest-hint"
                  />
                  <p id="live-guest-hint" className="field-hint">
                    {t('live.guest_hint')}
                  </p>
                </div>
                <button type="submit" className="btn btn-primary">
                  {t('live.join')}
                </button>
              </form>
            ) : (
              <div className="live-join-choices">
                {party === 'channel' ? (
                  // Rooms admit their members only: no guests.
                  <button type="button" className="btn" onClick={() => setAsGuest(true)}>
                    {t('live.as_guest')}
                  </button>
                ) : null}
                <a className="btn" href={d.consoleSigninHref}>
                  {t('live.console_signin')}
                </a>
              </div>
            )}
          </section>
        </div>
      )}
    </main>
  )
}
