import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import type { LiveParticipantData } from '~/server/live-participant.server'
import { LiveLinks } from './live-links'
import { LiveRoom } from './live-room'
import { GuestNameForm, LivePublicHeader } from './public-page'
import type { LiveParty } from './use-channel-live'

/**
 * The participant view of a channel or a console room (`party`): the live room once signed in (or as a guest, on a
 * public channel), else the mobile-web sign-in and the other ways in. The heading is the realm's name and, once the
 * party admitted the visitor, the channel's or room's name.
 */
export function LiveParticipantPage({ d, party }: { d: LiveParticipantData; party: LiveParty }) {
  const { t } = useTranslation()
  const [guest, setGuest] = useState<string | null>(null)
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
      <LivePublicHeader d={d} title={title ?? t(party === 'room' ? 'pages.room.live' : 'pages.public.live')} />
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
              <GuestNameForm
                id="live-guest-name"
                label={t('live.guest_name')}
                hint={t('live.guest_hint')}
                join={t('live.join')}
                buttonClass="btn btn-primary"
                onJoin={setGuest}
              />
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
