import { useState, type InputHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '../ui/icon'

/**
 * A password input with its show/hide toggle and error text. `scripted`: the toggle is left to the sign-in screen's
 * module (signin-page.ts), on a page React does not hydrate.
 */
export function PasswordField({
  id,
  error,
  autoComplete = 'current-password',
  label = 'login.password',
  scripted = false,
}: {
  id: string
  error?: string
  autoComplete?: string
  label?: string
  scripted?: boolean
}) {
  const { t } = useTranslation()
  const [show, setShow] = useState(false)
  const toggle = scripted ? { 'data-password-toggle': '' } : { onClick: () => setShow((s) => !s) }
  return (
    <div className="field">
      <label htmlFor={id}>{t(label)}</label>
      <div className="input-group">
        <input
          id={id}
          className="input"
          name="password"
          type={show ? 'text' : 'password'}
          autoComplete={autoComplete}
          required
          minLength={2}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <button type="button" className="btn btn-icon" aria-pressed={show} aria-controls={id} {...toggle}>
          <Icon name={show ? 'eyeOff' : 'eye'} label={show ? t('login.password.hide') : t('login.password.show')} />
        </button>
      </div>
      {error ? (
        <p className="error" id={`${id}-error`}>
          {t(error)}
        </p>
      ) : null}
    </div>
  )
}

/**
 * The submit button of a sign-in form: disabled while pending or while a required captcha is unsolved (the sign-in
 * screen's module enables it once the captcha holds a token).
 */
export function SubmitButton({ pending, disabled, label = 'login.submit' }: { pending: boolean; disabled?: boolean; label?: string }) {
  const { t } = useTranslation()
  return (
    <button
      type="submit"
      className="btn btn-primary btn-block"
      disabled={pending || disabled}
      aria-disabled={pending || disabled}
      data-blocked={disabled ? 'true' : undefined}
    >
      {pending ? <span className="spinner" aria-hidden="true" /> : null}
      {pending ? t('login.submitting') : t(label)}
    </button>
  )
}

/** A text field with label and error, for the sign-in forms. */
export function TextField({
  id,
  name,
  label,
  error,
  ...input
}: { id: string; name: string; label: string; error?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name'>) {
  const { t } = useTranslation()
  return (
    <div className="field">
      <label htmlFor={id}>{t(label)}</label>
      <input id={id} name={name} className="input" aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error ? (
        <p className="error" id={`${id}-error`}>
          {t(error)}
        </p>
      ) : null}
    </div>
  )
}
