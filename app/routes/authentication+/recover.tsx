import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useFetcher, useLoaderData, useLocation, useRouteLoaderData } from '@remix-run/react'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { RealmLogo } from '~/components/signin/brand'
import { RealmChooser } from '~/components/signin/realm-chooser'
import { PasswordField, SubmitButton, TextField } from '~/components/signin/password-field'
import { fieldErrors } from '#shared/schemas/auth'
import { PasswordReset, RecoverRequest } from '#shared/schemas/password'
import type { RootData } from '~/root'
import { RealmApiError, realmApi } from '~/server/api.server'
import { getLocale } from '~/server/i18n.server'
import { getRealmContext } from '~/server/realm.server'
import { devMode } from '../../../worker/lib/dev-mode'

export const handle = { title: 'recover.title' }

/**
 * Password recovery (public, seed 000 §2.1): ask for a reset link by nick or e-mail; the link (`?key=`) opens the
 * new-password form. On a multi-realm host without a realm the chooser comes first.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const realm = await getRealmContext(request, context)
  const key = new URL(request.url).searchParams.get('key')
  // The outbox link shows only where the outbox exists (the Worker in development mode); reading it needs a staff session.
  return { hasRealm: Boolean(realm.config), key, outbox: devMode(context.cloudflare.env) }
}

interface RecoverResult {
  sent?: boolean
  done?: boolean
  formError?: string
  fieldErrors?: Record<string, string>
}

const RESET_ERRORS: Record<string, string> = {
  reset_key_not_found: 'recover.error.not_found',
  reset_key_invalid: 'recover.error.invalid',
  reset_key_expired: 'recover.error.expired',
  reset_key_used: 'recover.error.used',
}

export async function action({ request, context }: ActionFunctionArgs) {
  const realm = await getRealmContext(request, context)
  if (!realm.config || !realm.code) return data<RecoverResult>({ formError: 'realm.error.load' }, { status: 400 })
  const form = await request.formData()
  const api = realmApi(request, context, { endpoint: realm.config.api_endpoint, realm: realm.multirealm ? realm.code : undefined })
  if (form.get('intent') === 'reset') {
    const parsed = v.safeParse(PasswordReset, { password: form.get('password') ?? '', confirm: form.get('confirm') ?? '' })
    if (!parsed.success) return data<RecoverResult>({ fieldErrors: fieldErrors(parsed.issues) }, { status: 400 })
    try {
      await api.mas.password.reset.$post({ json: parsed.output }, { headers: { 'x-reset-key': String(form.get('key') ?? '') } })
      return { done: true } satisfies RecoverResult
    } catch (err) {
      if (!(err instanceof RealmApiError)) throw err
      const cause = err.errors.find((e) => e.cause in RESET_ERRORS)?.cause
      return data<RecoverResult>(
        { formError: cause ? RESET_ERRORS[cause] : err.has('network') ? 'error.http.network' : 'app.error.description' },
        { status: err.status },
      )
    }
  }
  const parsed = v.safeParse(RecoverRequest, { realm: realm.code, login: form.get('login') ?? '', lang: await getLocale(request) })
  if (!parsed.success) return data<RecoverResult>({ fieldErrors: fieldErrors(parsed.issues) }, { status: 400 })
  try {
    await api.mas.password.recover.$post({ json: parsed.output })
  } catch (err) {
    if (!(err instanceof RealmApiError)) throw err
    return data<RecoverResult>({ formError: err.has('network') ? 'error.http.network' : 'app.error.description' }, { status: err.status })
  }
  return { sent: true } satisfies RecoverResult
}

/** The latest answer: the fetcher's, or the action's when the form was posted without the page's script. */
function useRecoverResult(fetcher: { state: string; data?: RecoverResult }): RecoverResult | undefined {
  const actionData = useActionData<typeof action>()
  return fetcher.state !== 'idle' ? undefined : (fetcher.data ?? (actionData as RecoverResult | undefined))
}

function RequestForm() {
  const { t } = useTranslation()
  const fetcher = useFetcher<RecoverResult>()
  const pending = fetcher.state !== 'idle'
  const result = useRecoverResult(fetcher)
  if (result?.sent) {
    return (
      <div className="alert alert-info" role="status">
        {t('recover.sent')}
      </div>
    )
  }
  return (
    <fetcher.Form method="post" noValidate aria-busy={pending}>
      <input type="hidden" name="intent" value="request" />
      {result?.formError ? (
        <div className="alert alert-error" role="alert">
          {t(result.formError)}
        </div>
      ) : null}
      <TextField
        id="recover-login"
        name="login"
        label="recover.login"
        error={result?.fieldErrors?.login}
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
      />
      <SubmitButton pending={pending} label="recover.submit" />
    </fetcher.Form>
  )
}

function ResetForm({ resetKey }: { resetKey: string }) {
  const { t } = useTranslation()
  const fetcher = useFetcher<RecoverResult>()
  const [clientErrors, setClientErrors] = useState<Record<string, string>>({})
  const pending = fetcher.state !== 'idle'
  const result = useRecoverResult(fetcher)
  const errors = { ...result?.fieldErrors, ...clientErrors }
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    const f = new FormData(e.currentTarget)
    const parsed = v.safeParse(PasswordReset, { password: f.get('password') ?? '', confirm: f.get('confirm') ?? '' })
    const found = parsed.success ? {} : fieldErrors(parsed.issues)
    setClientErrors(found)
    if (!parsed.success) e.preventDefault()
  }
  if (result?.done) {
    return (
      <div className="alert alert-info" role="status">
        <p>{t('recover.done')}</p>
        <Link className="btn btn-primary" to="/">
          {t('recover.to_signin')}
        </Link>
      </div>
    )
  }
  return (
    <fetcher.Form method="post" noValidate onSubmit={onSubmit} aria-busy={pending}>
      <input type="hidden" name="intent" value="reset" />
      <input type="hidden" name="key" value={resetKey} />
      {result?.formError ? (
        <div className="alert alert-error" role="alert">
          <p>{t(result.formError)}</p>
          <Link to="/authentication/recover">{t('recover.again')}</Link>
        </div>
      ) : null}
      <PasswordField id="recover-password" error={errors.password} autoComplete="new-password" label="recover.new_password" />
      <TextField id="recover-confirm" name="confirm" type="password" label="recover.confirm" error={errors.confirm} autoComplete="new-password" required />
      <SubmitButton pending={pending} label="recover.reset" />
    </fetcher.Form>
  )
}

export default function RecoverRoute() {
  const { hasRealm, key, outbox } = useLoaderData<typeof loader>()
  const root = useRouteLoaderData<RootData>('root')
  const location = useLocation()
  const { t } = useTranslation()
  if (!hasRealm || !root?.realm) return <RealmChooser redirectTo={location.pathname + location.search} />
  return (
    <main className="entry" id="main">
      <div className="entry-card">
        <div className="entry-logo">
          <RealmLogo config={root.realm} />
        </div>
        <h1>{key ? t('recover.reset.title') : t('recover.title')}</h1>
        <p className="lead">{key ? t('recover.reset.description') : t('recover.description')}</p>
        {key ? <ResetForm resetKey={key} /> : <RequestForm />}
        <p className="form-links">
          <Link to="/">{t('recover.to_signin')}</Link>
          {outbox ? <Link to="/authentication/outbox">{t('outbox.title')}</Link> : null}
        </p>
      </div>
    </main>
  )
}
