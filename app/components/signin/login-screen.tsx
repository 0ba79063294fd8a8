import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import type { RealmConfig, SigninMethod } from '#shared/schemas/realm'
import { LegalLinks, RealmLogo } from './brand'
import { CAPTCHA_TEXTS } from './captcha'
import { Icon } from '../ui/icon'
import { LanguageForm } from '../shell/language-menu'
import { EmployeeForm, EmployeeTokenForm, UsernameForm, type SigninFormProps } from './forms'
import { GoogleButton } from './google-button'
import { SsoNotice } from './sso-notice'
import { googleInUsernameForm, signinTabs } from './tabs'
import { TokenLogin } from './token-login'

/** What the /login action answers when sign-in fails. */
export interface LoginResult {
  /** Message key of the form-level error (seed 000 §8). */
  formError?: string
  formErrorValues?: Record<string, string>
  fieldErrors?: Record<string, string>
  /** The server demands a captcha from now on (repeated failures). */
  captchaRequired?: boolean
  /** The tab of the form that was sent, shown again with its errors. */
  method?: SigninMethod
  /** What was typed in it (never a password or token), put back in the form. */
  values?: Record<string, string>
}

export type LoginNotice = 'signin' | 'session_timeout' | 'dashboard_access' | 'realm'

const NOTICES: Record<LoginNotice, { key: string; kind: 'info' | 'error' }> = {
  signin: { key: 'login.session_required', kind: 'info' },
  realm: { key: 'login.session_required', kind: 'info' },
  session_timeout: { key: 'login.msg.error.session_timeout', kind: 'error' },
  dashboard_access: { key: 'login.msg.error.403', kind: 'error' },
}

/** The texts the sign-in screen's module shows (signin-page.ts), translated on the server. */
const SCRIPT_TEXTS = [
  ...CAPTCHA_TEXTS,
  'login.submitting',
  'login.password.show',
  'login.password.hide',
  'login.google.waiting',
  'login.method.iptv.unlocked',
  'login.msg.error.google.popup_closed',
  'login.msg.error.google.denied',
  'login.msg.error.google.invalid',
  'login.msg.error.provider_unavailable',
]

export interface LoginScreenProps {
  config: RealmConfig
  multirealm: boolean
  locale: string
  notice?: LoginNotice
  /** The action's answer to a failed attempt (errors, the tab and values sent). */
  result?: LoginResult
  /** Where to go after sign-in; the current address when not given. */
  redirectTo?: string
  /** The page's address (`pathname` and `search`), which the forms post to and return to. */
  pathname: string
  search: string
}

/**
 * The sign-in screen (seed 000 §2.1): one tab per method the realm allows, in its order; the TV-provider tab appears
 * after 10 clicks on the logo where it is not first. A link carrying `token` and `provider` signs in on its own.
 * Forms post to /login with the current path as `redirectTo`, so the requested page is restored after sign-in.
 *
 * It is server-rendered markup that works without script: /login is served without React (root.tsx, `handle.hydrate`),
 * and its behaviour is one small module (signin-page.ts) that reads the markup — inactive tabs' panels are
 * `<template>`s, texts come in `data-texts`. React never renders it in a live document: every page that shows it (/login,
 * the outbox, an OAuth2 request) is loaded as a document when reached from a hydrated page
 * (app/lib/document-navigation.ts), so the module and React never share its markup.
 */
export const LoginScreen = memo(function LoginScreen({ config, multirealm, locale, notice, result, redirectTo, pathname, search }: LoginScreenProps) {
  const { t } = useTranslation()

  const unlocked = signinTabs(config.allowed_signin, true)
  const shown = signinTabs(config.allowed_signin, false)
  const sent = result?.method && unlocked.includes(result.method) ? result.method : undefined
  const current = sent ?? shown[0]
  const tabs = unlocked.filter((m) => shown.includes(m) || m === sent || (m === 'iptv' && !shown.includes('iptv')))
  const visibleTabs = tabs.filter((m) => shown.includes(m) || m === sent)
  const target = redirectTo ?? pathname + search
  // The forms post to /login keeping the page's query there (a failed attempt renders the same screen), or naming
  // the page to return to from elsewhere (the outbox, the OAuth2 request).
  const action = pathname === '/login' ? `/login${search}` : `/login?${new URLSearchParams({ redirectTo: target })}`
  const params = new URLSearchParams(search)
  const linkToken = params.get('token')
  const linkProvider = params.get('provider') ?? ''
  const tokenLink = linkToken && (config.allowed_signin as string[]).includes(linkProvider) ? linkToken : null
  const captcha = config.captcha_enabled || result?.captchaRequired ? config : null
  const texts = JSON.stringify(Object.fromEntries(SCRIPT_TEXTS.map((k) => [k, t(k)])))
  const noticeInfo = notice && !result?.formError ? NOTICES[notice] : undefined

  const panel = (method: SigninMethod, withResult: boolean) => {
    const props: Omit<SigninFormProps, 'children'> = {
      action,
      redirectTo: target,
      captcha,
      serverErrors: withResult ? result?.fieldErrors : undefined,
      values: withResult ? result?.values : undefined,
    }
    return (
      <div role={tabs.length > 1 ? 'tabpanel' : undefined} id={`signin-panel-${method}`} aria-labelledby={tabs.length > 1 ? `signin-tab-${method}` : undefined}>
        {method === 'iptv' ? (
          <UsernameForm {...props}>
            {googleInUsernameForm(config.allowed_signin) ? (
              <div className="signin-alt">
                <p className="divider">
                  <span>{t('login.or')}</span>
                </p>
                <GoogleButton />
              </div>
            ) : null}
            <SsoNotice url={config.token_sso_url} />
          </UsernameForm>
        ) : method === 'employee' ? (
          <EmployeeForm {...props} />
        ) : method === 'employee_token' ? (
          <EmployeeTokenForm {...props}>
            <SsoNotice url={config.token_sso_url} />
          </EmployeeTokenForm>
        ) : (
          <div className="signin-alt">
            <p>{t('login.google.description')}</p>
            <GoogleButton />
          </div>
        )}
      </div>
    )
  }

  return (
    <main
      className="entry"
      id="main"
      data-signin=""
      data-texts={texts}
      data-realm={config.realm}
      data-api={config.api_endpoint}
      data-locale={locale}
      data-action={action}
      data-redirect-to={target}
    >
      <div className="entry-card">
        <div className="entry-logo">
          <RealmLogo config={config} clickable />
        </div>
        <h1>{t('login.title')}</h1>
        <p className="lead">
          {t('login.subtitle', { realm: config.name })}{' '}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- focusable so keyboard users can reach the hint */}
          <span className="tooltip" tabIndex={0} title={t('realm.tooltip', { name: config.name, code: config.realm })}>
            <Icon name="info" size={16} label={t('realm.tooltip', { name: config.name, code: config.realm })} />
          </span>
        </p>
        <p className="visually-hidden" role="status" data-unlocked-status="" />
        {noticeInfo ? (
          <div className={`alert alert-${noticeInfo.kind}`} role={noticeInfo.kind === 'error' ? 'alert' : 'status'} data-notice="">
            {t(noticeInfo.key)}
          </div>
        ) : null}
        {tokenLink ? (
          <TokenLogin
            token={tokenLink}
            provider={linkProvider}
            realm={config.realm}
            action={action}
            pathname={pathname}
            search={search}
            result={result}
            captcha={captcha}
          />
        ) : (
          <>
            {result?.formError ? (
              <div className="alert alert-error" role="alert" data-server-error="">
                {t(result.formError, result.formErrorValues)}
              </div>
            ) : null}
            <div className="alert alert-error" role="alert" data-client-error="" hidden />
            {tabs.length > 1 ? (
              <div className="signin-tabs" role="tablist" aria-label={t('login.methods')} hidden={visibleTabs.length < 2}>
                {tabs.map((m) => (
                  <button
                    key={m}
                    type="button"
                    role="tab"
                    id={`signin-tab-${m}`}
                    data-method={m}
                    hidden={!visibleTabs.includes(m)}
                    aria-selected={m === current}
                    aria-controls={`signin-panel-${m}`}
                    tabIndex={m === current ? 0 : -1}
                  >
                    {t(`login.method.${m}`)}
                  </button>
                ))}
              </div>
            ) : null}
            {current ? <div data-panel-host="">{panel(current, true)}</div> : <p className="alert alert-info">{t('login.methods.none')}</p>}
            {/* Every tab's panel, fresh (no errors, a new captcha), for the module to show when its tab is chosen. */}
            {tabs.length > 1
              ? tabs.map((m) => (
                  <template key={m} data-panel={m}>
                    {panel(m, false)}
                  </template>
                ))
              : null}
          </>
        )}
        {multirealm ? (
          <form method="post" action="/oauth2/authorize" style={{ marginTop: '1rem', textAlign: 'center' }}>
            <input type="hidden" name="intent" value="reset" />
            <button type="submit" className="btn btn-link">
              {t('realm.change')}
            </button>
          </form>
        ) : null}
        <div className="entry-footer">
          <LegalLinks config={config} />
          <LanguageForm locale={locale} here={pathname + search} />
        </div>
      </div>
    </main>
  )
})
