import { useTranslation } from 'react-i18next'
import type { ReactNode } from 'react'
import { defaultUf, DOCUMENT_MAX, DOCUMENT_TYPES, NO_UF, UF_CODES, type DocumentType } from '#shared/schemas/auth'
import { Captcha } from './captcha'
import { PasswordField, SubmitButton, TextField } from './password-field'
import type { RealmConfig } from '#shared/schemas/realm'

/**
 * What every sign-in form needs. The forms post to /login as plain HTML forms (the page works without script): the
 * action validates them with the shared schemas and answers the errors and the values typed (never the password),
 * which the screen renders again. The sign-in screen's module adds the captcha, the password toggle and the
 * employee form's state rule (signin-page.ts).
 */
export interface SigninFormProps {
  /** Where the form posts: /login with the page's query, so a failed attempt renders the same screen. */
  action: string
  /** Field errors the server answered. */
  serverErrors?: Record<string, string>
  /** The values the server answered with its errors (a failed attempt keeps what was typed, but the password). */
  values?: Record<string, string>
  redirectTo: string
  /** The realm's captcha when one is required (its hidden inputs sit inside the form); submitting stays disabled. */
  captcha: Pick<RealmConfig, 'captcha_type'> | null
  children?: ReactNode
}

function Hidden({ intent, redirectTo }: { intent: string; redirectTo: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
    </>
  )
}

function SigninForm({ action, intent, redirectTo, children }: { action: string; intent: string; redirectTo: string; children: ReactNode }) {
  return (
    <form method="post" action={action} noValidate data-signin-form="">
      <Hidden intent={intent} redirectTo={redirectTo} />
      {children}
    </form>
  )
}

/** Username and password (the TV-provider method, `iptv`); the realm's nick suffix is added by the server. */
export function UsernameForm({ action, serverErrors: errors = {}, values = {}, redirectTo, captcha, children }: SigninFormProps) {
  const { t } = useTranslation()
  return (
    <SigninForm action={action} intent="device" redirectTo={redirectTo}>
      <TextField
        id="login-nick"
        name="nick"
        label="login.username"
        error={errors.nick}
        defaultValue={values.nick}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        minLength={2}
      />
      <PasswordField id="login-password" error={errors.password} scripted />
      {captcha ? <Captcha id="captcha-iptv" config={captcha} /> : null}
      <SubmitButton pending={false} disabled={!!captcha} />
      <p className="form-links">
        <a href="/authentication/recover">{t('recover.link')}</a>
      </p>
      {children}
    </SigninForm>
  )
}

/** Employee sign-in (seed 000 §5): document type, number, state (UF) and password. */
export function EmployeeForm({ action, serverErrors: errors = {}, values = {}, redirectTo, captcha }: SigninFormProps) {
  const { t } = useTranslation()
  const docType: DocumentType = (DOCUMENT_TYPES as readonly string[]).includes(values.doc_type ?? '') ? (values.doc_type as DocumentType) : 'rg'
  const noState = docType === 'rne'
  const uf = noState ? NO_UF : values.uf || defaultUf(docType)
  const ufDefaults = Object.fromEntries(DOCUMENT_TYPES.map((d) => [d, defaultUf(d)]))
  return (
    <SigninForm action={action} intent="employee" redirectTo={redirectTo}>
      <div className="doc-row">
        <div className="field">
          <label htmlFor="employee-doc-type">{t('login.employee.doc_type')}</label>
          <select id="employee-doc-type" name="doc_type" className="input" defaultValue={docType}>
            {DOCUMENT_TYPES.map((d) => (
              <option key={d} value={d}>
                {t(`login.employee.doc_type.${d}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="employee-uf">{t('login.employee.uf')}</label>
          <select
            id="employee-uf"
            name="uf"
            className="input"
            defaultValue={uf}
            disabled={noState}
            data-uf-defaults={JSON.stringify(ufDefaults)}
            aria-invalid={errors.uf ? true : undefined}
            aria-describedby={errors.uf ? 'employee-uf-error' : undefined}
          >
            <option value={NO_UF}>{t('login.employee.uf.none')}</option>
            {UF_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
          {/* A disabled select is not submitted: rne always sends the blank state. */}
          {noState ? <input type="hidden" name="uf" value={NO_UF} /> : null}
          {errors.uf ? (
            <p className="error" id="employee-uf-error">
              {t(errors.uf)}
            </p>
          ) : null}
        </div>
      </div>
      <TextField
        id="employee-doc-number"
        name="doc_number"
        label="login.employee.doc_number"
        error={errors.doc_number}
        defaultValue={values.doc_number}
        autoComplete="username"
        spellCheck={false}
        required
        minLength={2}
        maxLength={DOCUMENT_MAX}
      />
      <PasswordField id="employee-password" error={errors.password} scripted />
      {captcha ? <Captcha id="captcha-employee" config={captcha} /> : null}
      <SubmitButton pending={false} disabled={!!captcha} />
    </SigninForm>
  )
}

/** Employee-token sign-in: the access code the state portal gives its staff. */
export function EmployeeTokenForm({ action, serverErrors: errors = {}, redirectTo, captcha, children }: SigninFormProps) {
  return (
    <SigninForm action={action} intent="employee_token" redirectTo={redirectTo}>
      <TextField
        id="employee-token"
        name="token"
        label="login.employee_token.label"
        error={errors.token}
        autoComplete="one-time-code"
        spellCheck={false}
        required
      />
      {captcha ? <Captcha id="captcha-employee-token" config={captcha} /> : null}
      <SubmitButton pending={false} disabled={!!captcha} />
      {children}
    </SigninForm>
  )
}
