import { useFetcher } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { REALM_CODE_MAX } from '#shared/schemas/common'

export interface RealmChoiceResult {
  error?: { field: 'realm'; message: string; values?: Record<string, string> }
}

/**
 * Realm chooser (seed 000 §2.1): one realm-code field and a select button. Posts to /oauth2/authorize, which
 * loads the realm's configuration; shows a loading state while pending and marks the field when it fails.
 * `redirectTo` returns to the page that needed a realm (e.g. an OAuth2 request or a recovery link).
 */
export function RealmChooser({ result, defaultCode = '', redirectTo }: { result?: RealmChoiceResult; defaultCode?: string; redirectTo?: string }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<RealmChoiceResult>({ key: 'realm-chooser' })
  const pending = fetcher.state !== 'idle'
  const error = pending ? undefined : (fetcher.data ?? result)?.error
  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <h1>{t('realm.select.title')}</h1>
        <p className="lead">{t('realm.select.description')}</p>
        <fetcher.Form method="post" action="/oauth2/authorize" aria-busy={pending} noValidate>
          <input type="hidden" name="intent" value="select" />
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <div className="field">
            <label htmlFor="realm-code">{t('realm.select.label')}</label>
            <input
              id="realm-code"
              className="input"
              name="realm"
              defaultValue={defaultCode}
              required
              maxLength={REALM_CODE_MAX}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              autoComplete="organization"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'realm-code-error' : 'realm-code-hint'}
            />
            {error ? (
              <p className="error" id="realm-code-error" role="alert">
                {t(error.message, error.values)}
              </p>
            ) : (
              <p className="hint" id="realm-code-hint">
                {t('realm.select.hint')}
              </p>
            )}
          </div>
          <button type="submit" className="btn btn-primary" disabled={pending} style={{ width: '100%' }}>
            {pending ? <span className="spinner" aria-hidden="true" /> : null}
            {pending ? t('realm.select.loading') : t('realm.select.submit')}
          </button>
          {pending ? (
            <p role="status" className="visually-hidden">
              {t('realm.select.loading')}
            </p>
          ) : null}
        </fetcher.Form>
      </div>
    </main>
  )
}
