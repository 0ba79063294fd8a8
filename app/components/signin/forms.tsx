import { Link, type FetcherWithComponents } from '@remix-run/react'
import { useState, type FormEvent, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import * as v from 'valibot'
import {
  defaultUf,
  DOCUMENT_MAX,
  DOCUMENT_TYPES,
  EmployeeSignin,
  EmployeeTokenSignin,
  fieldErrors,
  NO_UF,
  UF_CODES,
  UsernameSignin,
  type DocumentType,
} from '#shared/schemas/auth'
import type { LoginResult } from './login-screen'
import { PasswordField, SubmitButton, TextField } from './password-field'

export interface SigninFormProps {
  fetcher: FetcherWithComponents<LoginResult>
  /** Field errors the server answered. */
  serverErrors?: Record<string, string>
  redirectTo: string
  /** The captcha widget when one is required (its hidden inputs must sit inside the form). */
  captcha: ReactNode
  /** True while a required captcha is unsolved: submitting stays disabled. */
  blocked: boolean
  children?: ReactNode
}

/** Validates a form with its schema before it is sent; focuses the first failing field. */
function useClientValidation(schema: v.GenericSchema, read: (form: FormData) => Record<string, unknown>) {
  const [errors, setErrors] = useState<Record<string, string>>({})
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    const parsed = v.safeParse(schema, read(new FormData(e.currentTarget)))
    const found = parsed.success ? {} : fieldErrors(parsed.issues)
    setErrors(found)
    if (!parsed.success) {
      e.preventDefault()
      e.currentTarget.querySelector<HTMLElement>(`[name="${Object.keys(found)[0]}"]`)?.focus()
    }
  }
  return { errors, onSubmit }
}

function Hidden({ intent, redirectTo }: { intent: string; redirectTo: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
    </>
  )
}

/** Username and password (the TV-provider method, `iptv`); the realm's nick suffix is added by the server. */
export function UsernameForm({ fetcher, serverErrors, redirectTo, captcha, blocked, children }: SigninFormProps) {
  const { t } = useTranslation()
  const pending = fetcher.state !== 'idle'
  const { errors: clientErrors, onSubmit } = useClientValidation(UsernameSignin, (f) => ({ nick: f.get('nick') ?? '', password: f.get('password') ?? '' }))
  const errors = { ...serverErrors, ...clientErrors }
  return (
    <fetcher.Form method="post" action="/login" onSubmit={onSubmit} noValidate aria-busy={pending}>
      <Hidden intent="device" redirectTo={redirectTo} />
      <TextField
        id="login-nick"
        name="nick"
        label="login.username"
        error={errors.nick}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        minLength={2}
      />
      <PasswordField id="login-password" error={errors.password} />
      {captcha}
      <SubmitButton pending={pending} disabled={blocked} />
      <p className="form-links">
        <Link to="/authentication/recover">{t('recover.link')}</Link>
      </p>
      {children}
    </fetcher.Form>
  )
}

/** Employee sign-in (seed 000 §5): document type, number, state (UF) and password. */
export function EmployeeForm({ fetcher, serverErrors, redirectTo, captcha, blocked }: SigninFormProps) {
  const { t } = useTranslation()
  const pending = fetcher.state !== 'idle'
  const [docType, setDocType] = useState<DocumentType>('rg')
  const [uf, setUf] = useState(defaultUf('rg'))
  const { errors: clientErrors, onSubmit } = useClientValidation(EmployeeSignin, (f) => ({
    doc_type: f.get('doc_type') ?? '',
    doc_number: f.get('doc_number') ?? '',
    uf: f.get('uf') ?? '',
    password: f.get('password') ?? '',
  }))
  const errors = { ...serverErrors, ...clientErrors }
  const noState = docType === 'rne'
  return (
    <fetcher.Form method="post" action="/login" onSubmit={onSubmit} noValidate aria-busy={pending}>
      <Hidden intent="employee" redirectTo={redirectTo} />
      <div className="doc-row">
        <div className="field">
          <label htmlFor="employee-doc-type">{t('login.employee.doc_type')}</label>
          <select
            id="employee-doc-type"
            name="doc_type"
            className="input"
            value={docType}
            onChange={(e) => {
              const type = e.currentTarget.value as DocumentType
              setDocType(type)
              setUf(defaultUf(type))
            }}
          >
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
            value={uf}
            disabled={noState}
            onChange={(e) => setUf(e.currentTarget.value)}
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
        autoComplete="username"
        spellCheck={false}
        required
        minLength={2}
        maxLength={DOCUMENT_MAX}
      />
      <PasswordField id="employee-password" error={errors.password} />
      {captcha}
      <SubmitButton pending={pending} disabled={blocked} />
    </fetcher.Form>
  )
}

/** Employee-token sign-in: the access code the state portal gives its staff. */
export function EmployeeTokenForm({ fetcher, serverErrors, redirectTo, captcha, blocked, children }: SigninFormProps) {
  const pending = fetcher.state !== 'idle'
  const { errors: clientErrors, onSubmit } = useClientValidation(EmployeeTokenSignin, (f) => ({ token: f.get('token') ?? '' }))
  const errors = { ...serverErrors, ...clientErrors }
  return (
    <fetcher.Form method="post" action="/login" onSubmit={onSubmit} noValidate aria-busy={pending}>
      <Hidden intent="employee_token" redirectTo={redirectTo} />
      <TextField
        id="employee-token"
        name="token"
        label="login.employee_token.label"
        error={errors.token}
        autoComplete="one-time-code"
        spellCheck={false}
        required
      />
      {captcha}
      <SubmitButton pending={pending} disabled={blocked} />
      {children}
    </fetcher.Form>
  )
}
