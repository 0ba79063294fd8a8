import { useTranslation } from 'react-i18next'
import type { RealmConfig } from '#shared/schemas/realm'
import { Captcha } from './captcha'
import type { LoginResult } from './login-screen'

/** The current address without the token-login parameters (where "sign in another way" leads). */
export function withoutTokenParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search)
  for (const k of ['token', 'provider', 'realm']) params.delete(k)
  const rest = params.toString()
  return `${pathname}${rest ? `?${rest}` : ''}`
}

/**
 * Token login from a link (seed 000 §2.1: `?token=…&provider=…&realm=…`): the sign-in screen's module posts the form
 * on its own as soon as any required captcha is solved (`data-auto-submit`), showing progress; without script a
 * button sends it. The post goes to the same address, so a failure renders this view again with the token-credentials
 * error, a try-again message and a way to sign in otherwise.
 */
export function TokenLogin({
  token,
  provider,
  realm,
  action,
  pathname,
  search,
  result,
  captcha,
}: {
  token: string
  provider: string
  realm: string
  action: string
  pathname: string
  search: string
  result?: LoginResult
  /** The realm's captcha when one is required. */
  captcha: Pick<RealmConfig, 'captcha_type'> | null
}) {
  const { t } = useTranslation()
  const target = withoutTokenParams(pathname, search)
  const failed = result?.formError
  return (
    <section aria-labelledby="token-login-title" data-token-login="">
      <h2 id="token-login-title" className="visually-hidden">
        {t('login.token.title')}
      </h2>
      {failed ? (
        <div className="alert alert-error" role="alert">
          <p>{t(result.formError ?? 'login.msg.error.credentials.token', result.formErrorValues)}</p>
          <p>{t('login.token.try_again')}</p>
        </div>
      ) : (
        <form method="post" action={action} data-signin-form="" data-auto-submit="">
          <input type="hidden" name="intent" value="token" />
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="provider" value={provider} />
          <input type="hidden" name="realm" value={realm} />
          <input type="hidden" name="redirectTo" value={target} />
          {captcha ? <Captcha id="captcha-token" config={captcha} /> : null}
          <noscript>
            <button type="submit" className="btn btn-primary btn-block">
              {t('login.token.continue')}
            </button>
          </noscript>
          <p className="token-progress" role="status">
            <span className="spinner" aria-hidden="true" /> {t('login.token.progress')}
          </p>
        </form>
      )}
      <p className="form-links">
        <a href={target}>{t('login.token.other_way')}</a>
      </p>
    </section>
  )
}
