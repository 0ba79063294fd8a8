import { useFetcher } from '@remix-run/react'
import { useMemo, useState } from 'react'
import { useTranslation } from '~/i18n/react'
import { CheckboxField, LinesField, TextField } from '~/components/ui/fields'
import { Icon } from '~/components/ui/icon'
import { errorText } from '~/lib/error-text'
import { changedValues, useLiveValidation } from '~/lib/form'
import { jsonBody } from '~/lib/json'
import { useUnsavedChanges } from '~/lib/use-unsaved-changes'
import type { ErrorItem } from '#shared/schemas/error'
import { UserCreate, UserUpdate, type User } from '#shared/schemas/user'
import { UserPicture, UserRoles } from './__user-parts'
import type { ExtraInput, RoleChoice } from './__user.server'

export interface UserFormProps {
  mode: 'create' | 'edit'
  user: User | null
  roles: RoleChoice[]
  extra: ExtraInput[]
  nickSuffix: string
  allowPicture: boolean
  /** The user belongs to another realm: shown, not editable (seed 002 §5). */
  foreign: boolean
  /** The user holds more than the editor (the API's user ceiling): shown, not editable, saying why. */
  ceiling?: ErrorItem | null
}

type Values = {
  nick: string
  name: string
  email: string
  phone: string
  external_id: string
  password: string
  roles: string[]
  supervisees: string[]
  invisible: boolean
  bot: boolean
  hd_support: boolean
  extra: Record<string, string>
  avatar_file_id?: string
}

function start(user: User | null, extra: ExtraInput[]): Values {
  return {
    nick: user?.nick ?? '',
    name: user?.name ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    external_id: user?.external_id ?? '',
    password: '',
    roles: user?.roles ?? [],
    supervisees: user?.supervisees ?? [],
    invisible: user?.invisible ?? false,
    bot: user?.bot ?? false,
    hd_support: user?.hd_support ?? false,
    extra: Object.fromEntries(extra.map((f) => [f.key, user?.extra[f.key] ?? ''])),
  }
}

/** What is sent: an empty password means none (create) or unchanged (edit); an edit sends only what changed. */
function payload(mode: 'create' | 'edit', initial: Values, values: Values): Record<string, unknown> {
  const { password, ...rest } = values
  const base = mode === 'create' ? rest : changedValues(initial, rest)
  return password ? { ...base, password } : base
}

/** The user form (seed 002 §3 "User"), validated live with the API's schema plus the realm's required extra fields. */
export function UserForm({ mode, user, roles, extra, nickSuffix, allowPicture, foreign: otherRealm, ceiling = null }: UserFormProps) {
  const { t } = useTranslation()
  // Either way the form is read-only: the API would refuse every change.
  const foreign = otherRealm || ceiling !== null
  const fetcher = useFetcher<{ errors: ErrorItem[] }>({ key: 'user-form' })
  const initial = useMemo(() => start(user, extra), [user, extra])
  const [values, setValues] = useState<Values>(initial)
  const [avatar, setAvatar] = useState(user?.avatar_url ?? '')
  const body = payload(mode, initial, values)
  const missingExtra = Object.fromEntries(extra.filter((f) => f.required && !values.extra[f.key]?.trim()).map((f) => [`extra.${f.key}`, 'validation.required']))
  const form = useLiveValidation(mode === 'create' ? UserCreate : UserUpdate, body, fetcher.data?.errors, foreign ? {} : missingExtra)
  const saving = fetcher.state !== 'idle'
  const dirty = !saving && Object.keys(payload('edit', initial, values)).length > 0
  const guard = useUnsavedChanges(dirty && !foreign)
  const set =
    <K extends keyof Values>(k: K) =>
    (v: Values[K]) =>
      setValues((x) => ({ ...x, [k]: v }))
  const common = (k: string) => ({ label: t(`resources.user.fields.${k}`), error: form.errorOf(k), onBlur: () => form.touch(k), disabled: foreign })
  const other = (fetcher.data?.errors ?? []).filter((e) => !e.field || !(e.field in values || e.field.startsWith('extra.') || e.field === 'avatar_file_id'))

  function submit() {
    if (!form.attempt()) return
    fetcher.submit(jsonBody({ intent: 'save', values: body }), { method: 'post', encType: 'application/json' })
  }

  return (
    <form
      className="user-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      {otherRealm ? <p className="alert alert-info">{t('resources.user.foreign', { realm: user?.origin_realm ?? '' })}</p> : null}
      {ceiling && !otherRealm ? (
        <p className="alert alert-warning" role="status">
          {errorText(t, ceiling)}
        </p>
      ) : null}
      {other.length ? (
        <div className="alert alert-error" role="alert">
          <ul>
            {other.map((e, i) => (
              <li key={i}>{t(e.message, { defaultValue: t(`errors.${e.cause}`, { defaultValue: e.message }) })}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="card">
        <h2>{t('resources.user.sections.identity')}</h2>
        <div className="field-grid">
          {mode === 'create' ? (
            <TextField
              {...common('nick')}
              value={values.nick}
              onChange={set('nick')}
              required
              autoComplete="off"
              hint={nickSuffix ? t('resources.user.hints.nick', { suffix: nickSuffix }) : undefined}
            />
          ) : null}
          <TextField {...common('name')} value={values.name} onChange={set('name')} required />
          <TextField {...common('email')} type="email" value={values.email} onChange={set('email')} autoComplete="off" />
          <TextField {...common('phone')} type="tel" value={values.phone} onChange={set('phone')} />
          <TextField {...common('external_id')} value={values.external_id} onChange={set('external_id')} />
          <TextField
            {...common('password')}
            label={t(mode === 'create' ? 'resources.user.fields.password' : 'resources.user.fields.new_password')}
            type="password"
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            hint={t(mode === 'create' ? 'resources.user.hints.password' : 'resources.user.hints.new_password')}
          />
        </div>
      </div>
      <UserRoles roles={roles} value={values.roles} onChange={set('roles')} error={form.errorOf('roles')} disabled={foreign} />
      <div className="card">
        <h2>{t('resources.user.sections.more')}</h2>
        <LinesField {...common('supervisees')} value={values.supervisees} onChange={set('supervisees')} rows={3} hint={t('resources.user.hints.supervisees')} />
        <CheckboxField {...common('invisible')} value={values.invisible} onChange={set('invisible')} hint={t('resources.user.hints.invisible')} />
        <CheckboxField {...common('bot')} value={values.bot} onChange={set('bot')} hint={t('resources.user.hints.bot')} />
        <CheckboxField {...common('hd_support')} value={values.hd_support} onChange={set('hd_support')} hint={t('resources.user.hints.hd_support')} />
        {allowPicture ? (
          <UserPicture
            url={avatar}
            disabled={foreign}
            error={form.errorOf('avatar_file_id')}
            onChange={(file) => {
              setAvatar(file?.cdn_full_url ?? '')
              setValues((x) => ({ ...x, avatar_file_id: file?.id ?? '' }))
            }}
          />
        ) : null}
      </div>
      {extra.length ? (
        <div className="card">
          <h2>{t('resources.user.sections.extra')}</h2>
          <div className="field-grid">
            {extra.map((f) => (
              <TextField
                key={f.key}
                label={f.label}
                required={f.required}
                disabled={foreign}
                value={values.extra[f.key] ?? ''}
                onChange={(v) => setValues((x) => ({ ...x, extra: { ...x.extra, [f.key]: v } }))}
                onBlur={() => form.touch(`extra.${f.key}`)}
                error={form.errorOf(`extra.${f.key}`)}
              />
            ))}
          </div>
        </div>
      ) : null}
      {foreign ? null : (
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={saving || (mode === 'edit' && !dirty)}>
            {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('resources.user.save')}
          </button>
        </div>
      )}
      {guard}
    </form>
  )
}
