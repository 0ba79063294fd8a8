import { Form } from '@remix-run/react'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { MobileSigninForm } from '~/components/signin/mobile-signin'
import { Icon } from '~/components/ui/icon'
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
  const [name, setName] = useState('')
  return (
    <main className="live-public quiz-public" id="main">
      <header className="live-public-header">
        <div>
          {d.realm ? <p className="live-realm">{d.realm}</p> : null}
          <h1>{title}</h1>
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
      {d.session !== null || guest !== null ? (
        children(guest, d.session === 'mobile' ? d.here : d.consoleSigninHref)
      ) : (
        <div className="live-join">
          <MobileSigninForm action={`${d.here}?intent=signin`} title={t('live.member_signin')} />
          <section className="card live-join-other" aria-labelledby="quiz-join-title">
            <h2 id="quiz-join-title">{t('quiz.play.as_guest')}</h2>
            <form
              onSubmit={(e) => {
                e.preventDefault()
                if (name.trim().length >= 2) setGuest(name.trim())
              }}
            >
              <div className="field">
                <label htmlFor="quiz-guest-name">{t('quiz.play.nickname')}</label>
                <input
                  id="quiz-guest-name"
                  className="input"
                  value={name}
                  minLength={2}
                  maxLength={40}
                  required
                  autoComplete="nickname"
                  onChange={(e) => setName(e.target.value)}
                />
              </div>
              <button type="submit" className="btn primary">
                {t('quiz.play.join')}
              </button>
            </form>
          </section>
        </div>
      )}
    </main>
  )
}
