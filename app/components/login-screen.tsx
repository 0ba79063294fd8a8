import { useFetcher, useLocation } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { fieldErrors, UsernameSignin } from '~/schemas/auth'
import type { RealmConfig } from '~/schemas/realm'
import { LegalLinks, RealmLogo } from './brand'
import { Icon } from './icon'
import { LanguageMenu } from './language-menu'

/** What the /login action answers when sign-in fails. */
export interface LoginResult {
  /** Message key of the form-level error (seed 000 §8). */
  formError?: string
  formErrorValues?: Record<string, string>
  fieldErrors?: Record<string, string>
}

export type LoginNotice = 'signin' | 'session_timeout' | 'dashboard_access' | 'realm'

const NOTICES: Record<LoginNotice, { key: string; kind: 'info' | 'error' }> = {
  signin: { key: 'login.session_required', kind: 'info' },
  realm: { key: 'login.session_required', kind: 'info' },
  session_timeout: { key: 'login.msg.error.session_timeout', kind: 'error' },
  dashboard_access: { key: 'login.msg.error.403', kind: 'error' },
}

/**
 * The sign-in screen, rendered in place of any protected page without a session. It posts to /login with the
 * current path as `redirectTo`, so the requested page is restored after sign-in.
 */
export function LoginScreen({
  config,
  multirealm,
  locale,
  notice,
  result,
  redirectTo,
}: {
  config: RealmConfig
  multirealm: boolean
  locale: string
  notice?: LoginNotice
  result?: LoginResult
  redirectTo?: string
}) {
  const { t } = useTranslation()
  const location = useLocation()
  const fetcher = useFetcher<LoginResult>({ key: 'login' })
  const realmFetcher = useFetcher({ key: 'realm-change' })
  const [showPassword, setShowPassword] = useState(false)
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({})
  const pending = fetcher.state !== 'idle'
  const server = pending ? undefined : (fetcher.data ?? result)
  const errors = { ...server?.fieldErrors, ...clientErrors }
  const noticeInfo = notice && !server?.formError ? NOTICES[notice] : undefined
  const target = redirectTo ?? location.pathname + location.search

  function validate(e: FormEvent<HTMLFormElement>) {
    const form = new FormData(e.currentTarget)
    const parsed = v.safeParse(UsernameSignin, { nick: form.get('nick') ?? '', password: form.get('password') ?? '' })
    const found = parsed.success ? {} : fieldErrors(parsed.issues)
    setClientErrors(found)
    if (!parsed.success) {
      e.preventDefault()
      const first = e.currentTarget.querySelector<HTMLInputElement>(`[name="${Object.keys(found)[0]}"]`)
      first?.focus()
    }
  }

  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <div className="entry-logo">
          <RealmLogo config={config} />
        </div>
        <h1>{t('login.title')}</h1>
        <p className="lead">
          {t('login.subtitle', { realm: config.name })}{' '}
          <span className="tooltip" tabIndex={0} title={t('realm.tooltip', { name: config.name, code: config.realm })}>
            <Icon name="info" size={16} label={t('realm.tooltip', { name: config.name, code: config.realm })} />
          </span>
        </p>
        {noticeInfo ? (
          <div className={`alert alert-${noticeInfo.kind}`} role={noticeInfo.kind === 'error' ? 'alert' : 'status'}>
            {t(noticeInfo.key)}
          </div>
        ) : null}
        {server?.formError ? (
          <div className="alert alert-error" role="alert">
            {t(server.formError, server.formErrorValues)}
          </div>
        ) : null}
        <fetcher.Form method="post" action="/login" onSubmit={validate} noValidate aria-busy={pending}>
          <input type="hidden" name="redirectTo" value={target} />
          <div className="field">
            <label htmlFor="login-nick">{t('login.username')}</label>
            <input
              id="login-nick"
              className="input"
              name="nick"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              minLength={2}
              aria-invalid={errors.nick ? true : undefined}
              aria-describedby={errors.nick ? 'login-nick-error' : undefined}
            />
            {errors.nick ? (
              <p className="error" id="login-nick-error">
                {t(errors.nick)}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="login-password">{t('login.password')}</label>
            <div className="input-group">
              <input
                id="login-password"
                className="input"
                name="password"
                type={showPassword ? 'text' : 'password'}
                autoComplete="current-password"
                required
                minLength={2}
                aria-invalid={errors.password ? true : undefined}
                aria-describedby={errors.password ? 'login-password-error' : undefined}
              />
              <button
                type="button"
                className="btn btn-icon"
                aria-pressed={showPassword}
                aria-controls="login-password"
                onClick={() => setShowPassword((s) => !s)}
              >
                <Icon name={showPassword ? 'eyeOff' : 'eye'} label={showPassword ? t('login.password.hide') : t('login.password.show')} />
              </button>
            </div>
            {errors.password ? (
              <p className="error" id="login-password-error">
                {t(errors.password)}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn btn-primary" disabled={pending} style={{ width: '100%' }}>
            {pending ? <span className="spinner" aria-hidden="true" /> : null}
            {pending ? t('login.submitting') : t('login.submit')}
          </button>
        </fetcher.Form>
        {multirealm ? (
          <realmFetcher.Form method="post" action="/oauth2/authorize" style={{ marginTop: '1rem', textAlign: 'center' }}>
            <input type="hidden" name="intent" value="reset" />
            <button type="submit" className="btn btn-link">
              {t('realm.change')}
            </button>
          </realmFetcher.Form>
        ) : null}
        <div className="entry-footer">
          <LegalLinks config={config} />
          <LanguageMenu locale={locale} />
        </div>
      </div>
    </main>
  )
}
