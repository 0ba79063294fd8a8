import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { GuestNameForm, LivePublicHeader } from '~/components/live/public-page'
import type { LiveParticipantData } from '~/server/live-participant.server'

/**
 * The public, phone-sized page a player joins a running quiz or poll on (`/play/quiz/{id}`, `/play/poll/{id}`,
 * issue 14), over the participant views' loader data: a signed-in user (console or mobile-web session) plays at
 * once; a visitor signs in with the mobile sign-in, or plays as a guest with a nickname where the channel is public.
 * `children` renders the game for the guest's nickname (null: the signed-in user).
 */
export function PlayPage({ d, title, children }: { d: LiveParticipantData; title: string; children: (guest: string | null, signinHref: string) => ReactNode }) {
  const { t } = useTranslation()
  const [guest, setGuest] = useState<string | null>(null)
  return (
    <main className="live-public quiz-public" id="main">
      <LivePublicHeader d={d} title={title} />
      {d.session !== null || guest !== null ? (
        children(guest, d.session === 'mobile' ? d.here : d.consoleSigninHref)
      ) : (
        <div className="live-join">
          <MobileSigninForm action={`${d.here}?intent=signin`} title={t('live.member_signin')} />
          <section className="card live-join-other" aria-labelledby="quiz-join-title">
            <h2 id="quiz-join-title">{t('quiz.play.as_guest')}</h2>
            <GuestNameForm
              id="quiz-guest-name"
              label={t('quiz.play.nickname')}
              join={t('quiz.play.join')}
              inputClass="input"
              buttonClass="btn primary"
              onJoin={setGuest}
            />
          </section>
        </div>
      )}
    </main>
  )
}
