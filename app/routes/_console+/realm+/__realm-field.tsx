import { useTranslation } from 'react-i18next'
import { CheckboxGroup, CheckboxInput, NumberInput, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { CHOICES, SELECTS, widgetOf, type RealmField } from '#shared/schemas/realm-settings'
import { USER_KINDS } from '#shared/schemas/realm'

export interface RealmFieldProps {
  field: RealmField
  disabled?: boolean
  /** The masked value of a stored secret ('' when none). */
  stored?: string
  /** Realms that may be the parent (code and name). */
  parents?: { code: string; name: string }[]
  /** Whether a realm without parent may be chosen (platform operators). */
  topLevel?: boolean
  /** The field holds a parent now (a realm that has one keeps one unless top-level realms may be chosen). */
  hasParent?: boolean
}

const TIME_ZONES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['America/Sao_Paulo']

/** The kit input of one realm field (name = the field), chosen from its stored type and widget (`__realm-fields`). */
export function RealmFieldInput({ field, disabled, stored, parents = [], topLevel, hasParent }: RealmFieldProps) {
  const { t } = useTranslation()
  // A field added later without a label still shows (by its name) rather than a raw key.
  const label = t(`resources.realm.fields.${field}`, { defaultValue: field })
  const hint = t(`resources.realm.hints.${field}`, { defaultValue: '' }) || undefined
  const common = { name: field, label, disabled, hint }
  const choice = (o: string) => ({ value: o, label: t(`resources.realm.choices.${o}`, { defaultValue: o }) })
  switch (widgetOf(field)) {
    case 'bool':
      return <CheckboxInput {...common} />
    case 'int':
      return <NumberInput {...common} decimal={false} />
    case 'secret':
      return (
        <TextInput
          {...common}
          type="password"
          autoComplete="new-password"
          placeholder={stored || ''}
          hint={stored ? t('form.secret.stored', { mask: stored }) : t('form.secret.none')}
        />
      )
    case 'lines':
      return <TextArea {...common} rows={4} />
    case 'choices':
      return <CheckboxGroup {...common} options={(CHOICES[field] ?? []).map(choice)} />
    case 'select':
      return <SelectInput {...common} options={(SELECTS[field] ?? []).map(choice)} />
    case 'map':
      return <TextArea {...common} rows={4} hint={t('resources.realm.hints.auth_type', { kinds: USER_KINDS.join(', ') })} />
    case 'json':
      return <TextArea {...common} rows={5} code />
    case 'parent':
      return (
        <SelectInput
          {...common}
          options={[
            ...(topLevel || !hasParent ? [{ value: '', label: t('resources.realm.no_parent') }] : []),
            ...parents.map((p) => ({ value: p.code, label: `${p.name} (${p.code})` })),
          ]}
        />
      )
    case 'time_zone':
      return (
        <>
          <TextInput {...common} list="time-zones" autoComplete="off" />
          <datalist id="time-zones">
            {TIME_ZONES.map((tz) => (
              <option key={tz} value={tz} />
            ))}
          </datalist>
        </>
      )
    case 'url':
      // New realm URLs get https:// when missing (seed 000 §5), so a bare host is fine: no browser URL check.
      return <TextInput {...common} hint={hint ?? t('resources.realm.hints.url')} autoComplete="off" />
    default:
      return <TextInput {...common} autoComplete="off" />
  }
}
