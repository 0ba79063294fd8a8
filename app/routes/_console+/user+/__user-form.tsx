import { useActionData } from '@remix-run/react'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckboxInput, KitForm, TextArea, TextInput } from '~/components/form/kit'
import { errorText } from '~/lib/error-text'
import { DEFAULT_TIME_ZONE } from '~/lib/form-kit'
import type { ErrorItem } from '#shared/schemas/error'
import { UserCreate, UserUpdate, type User } from '#shared/schemas/user'
import { prepareUser, userFields } from './__user-fields'
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

/**
 * The user form (seed 002 §3 "User") on the form kit: the API's schema (`UserCreate`, `UserUpdate`) with the realm's
 * extra fields, live in the browser and again in the action, which sends an edit's changes only. Works without script.
 */
export function UserForm({ mode, user, roles, extra, nickSuffix, allowPicture, foreign: otherRealm, ceiling = null }: UserFormProps) {
  const { t } = useTranslation()
  const lastResult = useActionData()
  // Either way the form is read-only: the API would refuse every change.
  const foreign = otherRealm || ceiling !== null
  const fields = useMemo(() => userFields(extra, mode), [extra, mode])
  const disabled = foreign
  const text = (name: string, more: { required?: boolean; type?: 'email' | 'password'; autoComplete?: string; hint?: string; label?: string } = {}) => (
    <TextInput name={name} label={more.label ?? t(`resources.user.fields.${name}`)} disabled={disabled} {...more} />
  )
  return (
    <KitForm
      schema={mode === 'create' ? UserCreate : UserUpdate}
      fields={fields}
      prepare={prepareUser}
      lastResult={lastResult}
      defaultValue={user ? { ...user } : undefined}
      timeZone={DEFAULT_TIME_ZONE}
      className="user-form"
      submitLabel={t('resources.user.save')}
      protect={!foreign}
      buttons={foreign ? <></> : undefined}
    >
      {otherRealm ? <p className="alert alert-info">{t('resources.user.foreign', { realm: user?.origin_realm ?? '' })}</p> : null}
      {ceiling && !otherRealm ? (
        <p className="alert alert-warning" role="status">
          {errorText(t, ceiling)}
        </p>
      ) : null}
      <div className="card">
        <h2>{t('resources.user.sections.identity')}</h2>
        <div className="field-grid">
          {mode === 'create'
            ? text('nick', { required: true, autoComplete: 'off', hint: nickSuffix ? t('resources.user.hints.nick', { suffix: nickSuffix }) : undefined })
            : null}
          {text('name', { required: true })}
          {text('email', { type: 'email', autoComplete: 'off' })}
          {text('phone')}
          {text('external_id')}
          {text('password', {
            type: 'password',
            autoComplete: 'new-password',
            label: t(mode === 'create' ? 'resources.user.fields.password' : 'resources.user.fields.new_password'),
            hint: t(mode === 'create' ? 'resources.user.hints.password' : 'resources.user.hints.new_password'),
          })}
        </div>
      </div>
      <UserRoles roles={roles} disabled={foreign} />
      <div className="card">
        <h2>{t('resources.user.sections.more')}</h2>
        <TextArea name="supervisees" label={t('resources.user.fields.supervisees')} rows={3} hint={t('resources.user.hints.supervisees')} disabled={disabled} />
        {(['invisible', 'bot', 'hd_support'] as const).map((k) => (
          <CheckboxInput key={k} name={k} label={t(`resources.user.fields.${k}`)} hint={t(`resources.user.hints.${k}`)} disabled={disabled} />
        ))}
        {allowPicture ? <UserPicture url={user?.avatar_url ?? ''} disabled={foreign} /> : null}
      </div>
      {extra.length ? (
        <div className="card">
          <h2>{t('resources.user.sections.extra')}</h2>
          <div className="field-grid">
            {extra.map((f) => (
              <TextInput key={f.key} name={`extra.${f.key}`} label={f.label} required={f.required} disabled={disabled} />
            ))}
          </div>
        </div>
      ) : null}
    </KitForm>
  )
}
