import { useField } from '@conform-to/react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CheckboxInput, SelectInput, TextArea, TextInput } from '~/components/form/kit'

/** The realm's host names, one per line (an error names its line); a new realm is served at them at once. */
export function HostsField({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation()
  return <TextArea name="hosts" label={t('resources.realm.fields.hosts')} hint={t('resources.realm.hints.hosts')} rows={3} disabled={disabled} />
}

/**
 * The first administrator of a new realm (optional, `admin.*`): without one, nobody could sign in there yet. Its
 * fields show once asked for (without script they show from the start and count only when the box is checked).
 */
export function FirstAdminFields({ roles }: { roles: string[] | null }) {
  const { t } = useTranslation()
  const [enable] = useField<string>('admin.enable')
  const [on, setOn] = useState(enable.initialValue === 'on')
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  const label = (k: string) => t(`resources.realm.admin.${k}`)
  return (
    <fieldset className="first-admin">
      <legend>{t('resources.realm.admin.title')}</legend>
      <div onChange={(e) => setOn((e.target as HTMLInputElement).checked)}>
        <CheckboxInput name="admin.enable" label={label('enable')} hint={t('resources.realm.admin.hint')} />
      </div>
      {on || !hydrated ? (
        <div className="field-grid">
          <TextInput name="admin.nick" label={label('nick')} autoComplete="off" required />
          <TextInput name="admin.name" label={label('name')} required />
          <TextInput name="admin.email" label={label('email')} type="email" />
          <TextInput name="admin.password" label={label('password')} type="password" autoComplete="new-password" hint={t('validation.password_new')} required />
          {roles ? (
            <SelectInput name="admin.role" label={label('role')} options={roles.map((r) => ({ value: r, label: r }))} />
          ) : (
            <TextInput name="admin.role" label={label('role')} required />
          )}
        </div>
      ) : null}
    </fieldset>
  )
}
