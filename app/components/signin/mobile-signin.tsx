import { Form, useActionData } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/** What a refused mobile sign-in answers its form: message keys. */
export interface MobileSigninAnswer {
  formError: string | null
  fieldErrors: Record<string, string>
}

/**
 * The mobile-web sign-in form (username and password; issue 13): the mobile feed and the channel participant view
 * post it to their own action, which answers with `mobileSignin()` (server/mobile-session.server.ts). A plain form
 * post: it works without script. `title` is the form's heading; `children` come after the button.
 */
export function MobileSigninForm({ action, title, children }: { action: string; title: string; children?: ReactNode }) {
  const { t } = useTranslation()
  const answer = useActionData<MobileSigninAnswer>()
  const errors = answer?.fieldErrors ?? {}
  return (
    <Form method="post" action={action} className="card simple-form" aria-labelledby="mobile-signin-title" noValidate>
      <h2 id="mobile-signin-title">{title}</h2>
      {answer?.formError ? (
        <p className="error" role="alert">
          {t(answer.formError)}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor="mobile-nick">{t('mobile.feed.nick')}</label>
        <input
          id="mobile-nick"
          name="nick"
          className="input"
          autoComplete="username"
          autoCapitalize="none"
          required
          aria-invalid={errors.nick ? true : undefined}
          aria-describedby={errors.nick ? 'mobile-nick-error' : undefined}
        />
        {errors.nick ? (
          <p className="error" id="mobile-nick-error">
            {t(errors.nick)}
          </p>
        ) : null}
      </div>
      <div className="field">
        <label htmlFor="mobile-password">{t('mobile.feed.password')}</label>
        <input
          id="mobile-password"
          name="password"
          type="password"
          className="input"
          autoComplete="current-password"
          required
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? 'mobile-password-error' : undefined}
        />
        {errors.password ? (
          <p className="error" id="mobile-password-error">
            {t(errors.password)}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn btn-primary btn-block">
        {t('mobile.feed.signin')}
      </button>
      {children}
    </Form>
  )
}
