import { useFetcher, useLocation } from '@remix-run/react'
import { Suspense, useEffect, useRef, useState, type ComponentProps, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import type { RealmConfig, SigninMethod } from '#shared/schemas/realm'
import { LegalLinks, RealmLogo } from './brand'
import { Icon } from '../ui/icon'
import { holdHydration } from '~/lib/hydration'
import { LanguageMenu } from '../shell/language-menu'
import { EmployeeForm, EmployeeTokenForm, UsernameForm, type SigninFormProps } from './forms'
import { GoogleButton } from './google-button'
import { SsoNotice } from './sso-notice'
import { googleInUsernameForm, signinTabs, TV_PROVIDER_CLICKS } from './tabs'
import { TokenLogin } from './token-login'

/**
 * The captcha widget is a chunk of its own, loaded only when the realm's sign-in asks for one (or the server demands
 * it after failures): most realms' sign-in page never downloads it (tests/workers/page-weight.test.ts). Where the
 * server rendered it, the browser loads it before hydrating (app/lib/hydration.ts), so it hydrates at once.
 */
type CaptchaModule = typeof import('./captcha')
let captchaModule: CaptchaModule | null = null
let captchaLoading: Promise<CaptchaModule> | null = null
function loadCaptcha(): Promise<CaptchaModule> {
  captchaLoading ??= import('./captcha').then((m) => (captchaModule = m))
  return captchaLoading
}
if (typeof document !== 'undefined' && document.querySelector('[data-captcha-state]')) holdHydration(loadCaptcha())

function Captcha(props: ComponentProps<CaptchaModule['Captcha']>) {
  // Suspends (as React.lazy does) until the chunk is there; the Suspense around it shows nothing meanwhile.
  if (!captchaModule) throw loadCaptcha()
  return <captchaModule.Captcha {...props} />
}

/** What the /login action answers when sign-in fails. */
export interface LoginResult {
  /** Message key of the form-level error (seed 000 §8). */
  formError?: string
  formErrorValues?: Record<string, string>
  fieldErrors?: Record<string, string>
  /** The server demands a captcha from now on (repeated failures). */
  captchaRequired?: boolean
}

export type LoginNotice = 'signin' | 'session_timeout' | 'dashboard_access' | 'realm'

const NOTICES: Record<LoginNotice, { key: string; kind: 'info' | 'error' }> = {
  signin: { key: 'login.session_required', kind: 'info' },
  realm: { key: 'login.session_required', kind: 'info' },
  session_timeout: { key: 'login.msg.error.session_timeout', kind: 'error' },
  dashboard_access: { key: 'login.msg.error.403', kind: 'error' },
}

/**
 * The sign-in screen (seed 000 §2.1), rendered in place of any protected page without a session. One tab per method
 * the realm allows, in its order; the TV-provider tab appears after 10 clicks on the logo where it is not first. A
 * link carrying `token` and `provider` signs in on its own. Forms post to /login with the current path as
 * `redirectTo`, so the requested page is restored after sign-in.
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
  const [clicks, setClicks] = useState(0)
  const tabs = signinTabs(config.allowed_signin, clicks >= TV_PROVIDER_CLICKS)
  const [active, setActive] = useState<SigninMethod | undefined>(tabs[0])
  const tabRefs = useRef<Partial<Record<SigninMethod, HTMLButtonElement | null>>>({})
  const [clientError, setClientError] = useState<string | null>(null)
  const [captchaToken, setCaptchaToken] = useState<string | null>(null)
  const [captchaDemanded, setCaptchaDemanded] = useState(false)
  const [round, setRound] = useState(0)
  const previous = useRef(fetcher.state)

  const pending = fetcher.state !== 'idle'
  const server = pending ? undefined : (fetcher.data ?? result)
  const target = redirectTo ?? location.pathname + location.search
  const params = new URLSearchParams(location.search)
  const linkToken = params.get('token')
  const linkProvider = params.get('provider') ?? ''
  const tokenLink = linkToken && (config.allowed_signin as string[]).includes(linkProvider) ? linkToken : null

  // An attempt spends its captcha token: as soon as one is sent a new captcha widget starts, and when the answer
  // says so the captcha is demanded from then on.
  useEffect(() => {
    if (previous.current === 'idle' && fetcher.state !== 'idle') {
      setRound((r) => r + 1)
      setCaptchaToken(null)
    }
    if (previous.current !== 'idle' && fetcher.state === 'idle' && fetcher.data?.captchaRequired) setCaptchaDemanded(true)
    previous.current = fetcher.state
  }, [fetcher.state, fetcher.data])
  useEffect(() => {
    if (result?.captchaRequired) setCaptchaDemanded(true)
  }, [result])

  const captchaNeeded = config.captcha_enabled || captchaDemanded
  const captcha = captchaNeeded ? (
    <Suspense fallback={null}>
      <Captcha key={`${active}-${round}`} config={config} locale={locale} onToken={setCaptchaToken} />
    </Suspense>
  ) : null
  const blocked = captchaNeeded && !captchaToken
  const current = active && tabs.includes(active) ? active : tabs[0]

  function onLogoClick() {
    const next = clicks + 1
    setClicks(next)
    if (next === TV_PROVIDER_CLICKS && config.allowed_signin.includes('iptv')) setActive('iptv')
  }

  function onTabKey(e: KeyboardEvent<HTMLButtonElement>) {
    const index = tabs.indexOf(current!)
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0
    const to = e.key === 'Home' ? tabs[0] : e.key === 'End' ? tabs[tabs.length - 1] : step ? tabs[(index + step + tabs.length) % tabs.length] : null
    if (!to) return
    e.preventDefault()
    setActive(to)
    tabRefs.current[to]?.focus()
  }

  const formProps: Omit<SigninFormProps, 'children'> = { fetcher, serverErrors: server?.fieldErrors, redirectTo: target, captcha, blocked }
  const google = (
    <GoogleButton
      disabled={pending}
      onError={setClientError}
      onIdToken={(idToken) => {
        setClientError(null)
        fetcher.submit({ intent: 'google', id_token: idToken, redirectTo: target }, { method: 'post', action: '/login' })
      }}
    />
  )
  const shownError = clientError && !pending && !server?.formError ? clientError : null
  const noticeInfo = notice && !server?.formError && !shownError ? NOTICES[notice] : undefined

  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <div className="entry-logo">
          <RealmLogo config={config} onClick={onLogoClick} />
        </div>
        <h1>{t('login.title')}</h1>
        <p className="lead">
          {t('login.subtitle', { realm: config.name })}{' '}
          {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- focusable so keyboard users can reach the hint */}
          <span className="tooltip" tabIndex={0} title={t('realm.tooltip', { name: config.name, code: config.realm })}>
            <Icon name="info" size={16} label={t('realm.tooltip', { name: config.name, code: config.realm })} />
          </span>
        </p>
        {clicks >= TV_PROVIDER_CLICKS && config.allowed_signin.includes('iptv') ? (
          <p className="visually-hidden" role="status">
            {t('login.method.iptv.unlocked')}
          </p>
        ) : null}
        {noticeInfo ? (
          <div className={`alert alert-${noticeInfo.kind}`} role={noticeInfo.kind === 'error' ? 'alert' : 'status'}>
            {t(noticeInfo.key)}
          </div>
        ) : null}
        {tokenLink ? (
          <TokenLogin
            token={tokenLink}
            provider={linkProvider}
            realm={config.realm}
            fetcher={fetcher}
            captcha={
              captchaNeeded ? (
                <Suspense fallback={null}>
                  <Captcha key={`token-${round}`} config={config} locale={locale} onToken={setCaptchaToken} />
                </Suspense>
              ) : null
            }
            ready={!blocked}
          />
        ) : (
          <>
            {server?.formError || shownError ? (
              <div className="alert alert-error" role="alert">
                {server?.formError ? t(server.formError, server.formErrorValues) : t(shownError!)}
              </div>
            ) : null}
            {tabs.length > 1 ? (
              <div className="signin-tabs" role="tablist" aria-label={t('login.methods')}>
                {tabs.map((m) => (
                  <button
                    key={m}
                    ref={(el) => {
                      tabRefs.current[m] = el
                    }}
                    type="button"
                    role="tab"
                    id={`signin-tab-${m}`}
                    aria-selected={m === current}
                    aria-controls={`signin-panel-${m}`}
                    tabIndex={m === current ? 0 : -1}
                    onClick={() => setActive(m)}
                    onKeyDown={onTabKey}
                  >
                    {t(`login.method.${m}`)}
                  </button>
                ))}
              </div>
            ) : null}
            {current ? (
              <div
                role={tabs.length > 1 ? 'tabpanel' : undefined}
                id={`signin-panel-${current}`}
                aria-labelledby={tabs.length > 1 ? `signin-tab-${current}` : undefined}
              >
                {current === 'iptv' ? (
                  <UsernameForm {...formProps}>
                    {googleInUsernameForm(config.allowed_signin) ? (
                      <div className="signin-alt">
                        <p className="divider">
                          <span>{t('login.or')}</span>
                        </p>
                        {google}
                      </div>
                    ) : null}
                    <SsoNotice url={config.token_sso_url} />
                  </UsernameForm>
                ) : current === 'employee' ? (
                  <EmployeeForm {...formProps} />
                ) : current === 'employee_token' ? (
                  <EmployeeTokenForm {...formProps}>
                    <SsoNotice url={config.token_sso_url} />
                  </EmployeeTokenForm>
                ) : (
                  <div className="signin-alt">
                    <p>{t('login.google.description')}</p>
                    {google}
                  </div>
                )}
              </div>
            ) : (
              <p className="alert alert-info">{t('login.methods.none')}</p>
            )}
          </>
        )}
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
