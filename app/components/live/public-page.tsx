import { Form } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import type { LiveParticipantData } from '~/server/live-participant.server'

/**
 * What the public live pages share (a channel's or room's participant page, a quiz's or poll's play page): the
 * header with the realm's name, the page's title and, for a mobile-web session, who is signed in and the sign-out.
 */
export function LivePublicHeader({ d, title }: { d: LiveParticipantData; title: string }) {
  return (
    <header className="live-public-header">
      <div>
        {d.realm ? <p className="live-realm">{d.realm}</p> : null}
        <h1>{title}</h1>
      </div>
      <MobileSignout d={d} className="live-account" signedIn="live.signed_in_as" />
    </header>
  )
}

/** A public page's mobile-web session: who is signed in (`signedIn`: its text's key) and the sign-out posted to the page. */
export function MobileSignout({
  d,
  className,
  signedIn,
}: {
  d: { session: 'console' | 'mobile' | null; me: { name: string; nick: string } | null; here: string }
  className: string
  signedIn: 'live.signed_in_as' | 'persona.chat.signed_in_as'
}) {
  const { t } = useTranslation()
  return d.session === 'mobile' && d.me ? (
    <Form method="post" action={`${d.here}?intent=signout`} className={className}>
      <span>{t(signedIn, { name: d.me.name || d.me.nick })}</span>
      <button type="submit" className="btn">
        <Icon name="logout" /> {t('mobile.feed.signout')}
      </button>
    </Form>
  ) : null
}

/**
 * A guest's nickname (2 to 40 characters, trimmed) for `onJoin`; `id` names the field, `hint` (if any) describes it,
 * `inputClass` and `buttonClass` are the page's own styles.
 */
export function GuestNameForm({
  id,
  label,
  hint,
  join,
  inputClass,
  buttonClass,
  onJoin,
}: {
  id: string
  label: string
  hint?: string
  join: string
  inputClass?: string
  buttonClass: string
  onJoin: (name: string) => void
}) {
  const [name, setName] = useState('')
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        if (name.trim().length >= 2) onJoin(name.trim())
      }}
    >
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          className={inputClass}
          value={name}
          minLength={2}
          maxLength={40}
          required
          autoComplete="nickname"
          onChange={(e) => setName(e.target.value)}
          aria-describedby={hint ? `${id}-hint` : undefined}
        />
        {hint ? (
          <p id={`${id}-hint`} className="field-hint">
            {hint}
          </p>
        ) : null}
      </div>
      <button type="submit" className={buttonClass}>
        {join}
      </button>
    </form>
  )
}
