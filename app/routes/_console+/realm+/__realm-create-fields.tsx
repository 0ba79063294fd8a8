import { useTranslation } from '~/i18n/react'
import { CheckboxField, LinesField, SelectField, TextField } from '~/components/ui/fields'

/** The realm's host names, one per line; a new realm is served at them at once. */
export function HostsField(p: { value: string[]; onChange: (v: string[]) => void; onBlur: () => void; error?: string; disabled?: boolean }) {
  const { t } = useTranslation()
  return <LinesField label={t('resources.realm.fields.hosts')} hint={t('resources.realm.hints.hosts')} rows={3} {...p} />
}

const EMPTY = { nick: '', name: '', email: '', password: '', role: 'admin' }

/** The first administrator of a new realm (optional): without one, nobody could sign in there yet. */
export function FirstAdminFields({
  value,
  onChange,
  roles,
  errorOf,
  touch,
}: {
  value: Record<string, string> | null
  onChange: (v: Record<string, string> | null) => void
  roles: string[] | null
  errorOf: (f: string) => string | undefined
  touch: (f: string) => void
}) {
  const { t } = useTranslation()
  const field = (name: keyof typeof EMPTY) => ({
    value: value?.[name] ?? '',
    onChange: (v: string) => onChange({ ...(value ?? EMPTY), [name]: v }),
    onBlur: () => touch(`admin.${name}`),
    error: errorOf(`admin.${name}`),
    label: t(`resources.realm.admin.${name}`),
  })
  return (
    <fieldset className="first-admin">
      <legend>{t('resources.realm.admin.title')}</legend>
      <CheckboxField
        label={t('resources.realm.admin.enable')}
        hint={t('resources.realm.admin.hint')}
        value={value !== null}
        onChange={(on) => onChange(on ? EMPTY : null)}
      />
      {value ? (
        <div className="field-grid">
          <TextField {...field('nick')} autoComplete="off" required />
          <TextField {...field('name')} required />
          <TextField {...field('email')} type="email" />
          <TextField {...field('password')} type="password" autoComplete="new-password" hint={t('validation.password_new')} required />
          {roles ? <SelectField {...field('role')} options={roles.map((r) => ({ value: r, label: r }))} /> : <TextField {...field('role')} required />}
        </div>
      ) : null}
    </fieldset>
  )
}
