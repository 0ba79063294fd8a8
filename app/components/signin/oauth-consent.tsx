import { Form, useLocation, useNavigation } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import type { AuthorizeRequestInfo } from '#shared/schemas/oauth2'
import type { RealmConfig } from '#shared/schemas/realm'
import type { ErrorItem } from '#shared/schemas/error'
import { RealmLogo } from './brand'
import { Icon } from '../ui/icon'

/** The OAuth2 consent screen (seed 000 §2.1): which application asks, what it may do, and the user's answer. */
export function OAuthConsent({
  config,
  info,
  params,
  user,
}: {
  config: RealmConfig
  info: AuthorizeRequestInfo
  params: Record<string, string>
  user: { name: string; nick: string }
}) {
  const { t } = useTranslation()
  const navigation = useNavigation()
  const location = useLocation()
  const busy = navigation.state !== 'idle'
  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <div className="entry-logo">
          <RealmLogo config={config} />
        </div>
        <h1>{t('oauth2.title', { app: info.client.name })}</h1>
        <p className="lead">{t('oauth2.signed_in_as', { name: user.name, nick: user.nick })}</p>
        <h2 className="consent-subtitle">{t('oauth2.scopes')}</h2>
        <ul className="consent-scopes">
          {info.scopes.map((s) => (
            <li key={s}>
              <Icon name="check" /> {t(`oauth2.scope.${s}`)}
            </li>
          ))}
        </ul>
        <p className="hint">{t('oauth2.redirect', { host: new URL(info.redirect_uri).host })}</p>
        {/* Posted to the request's own address: the page shown after the answer is this request's. */}
        <Form method="post" action={location.pathname + location.search} className="consent-actions">
          {Object.entries(params).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button type="submit" name="intent" value="deny" className="btn" disabled={busy}>
            {t('oauth2.deny')}
          </button>
          <button type="submit" name="intent" value="allow" className="btn btn-primary" disabled={busy}>
            {busy ? <span className="spinner" aria-hidden="true" /> : null}
            {t('oauth2.allow')}
          </button>
        </Form>
      </div>
    </main>
  )
}

/** An authorization request that cannot be served: each invalid_request item with its field, cause and value. */
export function OAuthError({ errors }: { errors: ErrorItem[] }) {
  const { t } = useTranslation()
  return (
    <main className="entry" id="main">
      <div className="entry-card" role="alert">
        <h1>{t('oauth2.error.title')}</h1>
        <p className="lead">{t('oauth2.error.description')}</p>
        <ul className="oauth-errors">
          {errors.map((e, i) => (
            <li key={i}>
              <strong>{e.field || '—'}</strong>: {t(e.message, { defaultValue: e.cause })} <code>{e.cause}</code>
              {e.value !== null && e.value !== undefined ? (
                <>
                  {' '}
                  · <code>{String(e.value)}</code>
                </>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </main>
  )
}
