import { Link, useLocation, type FetcherWithComponents } from '@remix-run/react'
import { useEffect, useRef, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import type { LoginResult } from './login-screen'

/** The current address without the token-login parameters (where "sign in another way" leads). */
export function withoutTokenParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search)
  for (const k of ['token', 'provider', 'realm']) params.delete(k)
  const rest = params.toString()
  return `${pathname}${rest ? `?${rest}` : ''}`
}

/**
 * Token login from a link (seed 000 §2.1: `?token=…&provider=…&realm=…`): signs in on its own as soon as any required
 * captcha is solved, showing progress; on failure the token-credentials error and a try-again message.
 */
export function TokenLogin({
  token,
  provider,
  realm,
  fetcher,
  captcha,
  ready,
}: {
  token: string
  provider: string
  realm: string
  fetcher: FetcherWithComponents<LoginResult>
  captcha: ReactNode
  /** False while a required captcha is unsolved. */
  ready: boolean
}) {
  const { t } = useTranslation()
  const location = useLocation()
  const form = useRef<HTMLFormElement>(null)
  const sent = useRef(false)
  const target = withoutTokenParams(location.pathname, location.search)

  useEffect(() => {
    if (ready && !sent.current && form.current) {
      sent.current = true
      fetcher.submit(form.current)
    }
  }, [ready, fetcher])

  const failed = fetcher.state === 'idle' && fetcher.data?.formError
  return (
    <section aria-labelledby="token-login-title">
      <h2 id="token-login-title" className="visually-hidden">
        {t('login.token.title')}
      </h2>
      <fetcher.Form method="post" action="/login" ref={form}>
        <input type="hidden" name="intent" value="token" />
        <input type="hidden" name="token" value={token} />
        <input type="hidden" name="provider" value={provider} />
        <input type="hidden" name="realm" value={realm} />
        <input type="hidden" name="redirectTo" value={target} />
        {failed ? null : captcha}
        <noscript>
          <button type="submit" className="btn btn-primary btn-block">
            {t('login.token.continue')}
          </button>
        </noscript>
      </fetcher.Form>
      {failed ? (
        <div className="alert alert-error" role="alert">
          <p>{t(fetcher.data?.formError ?? 'login.msg.error.credentials.token', fetcher.data?.formErrorValues)}</p>
          <p>{t('login.token.try_again')}</p>
        </div>
      ) : (
        <p className="token-progress" role="status">
          <span className="spinner" aria-hidden="true" /> {t('login.token.progress')}
        </p>
      )}
      <p className="form-links">
        <Link to={target} reloadDocument>
          {t('login.token.other_way')}
        </Link>
      </p>
    </section>
  )
}
