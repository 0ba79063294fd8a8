import { useTranslation } from '~/i18n/react'
import { CheckboxField, ChoicesField, JsonField, LinesField, NumberField, SecretField, SelectField, TextField } from '~/components/ui/fields'
import { CHOICES, SELECTS, widgetOf, type RealmField } from '#shared/schemas/realm-settings'
import { USER_KINDS } from '#shared/schemas/realm'

export interface RealmFieldProps {
  field: RealmField
  value: unknown
  onChange: (value: unknown) => void
  onBlur: () => void
  error?: string
  disabled?: boolean
  /** The masked value of a stored secret ('' when none). */
  stored?: string
  /** Realms that may be the parent (code and name). */
  parents?: { code: string; name: string }[]
  /** Whether a realm without parent may be chosen (platform operators). */
  topLevel?: boolean
}

const TIME_ZONES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['America/Sao_Paulo']

/** `domain=kind` lines ↔ the auth_type map; a line without `=` becomes a key the schema refuses. */
const mapToLines = (m: unknown) => Object.entries((m ?? {}) as Record<string, string>).map(([k, v]) => `${k}=${v}`)
const linesToMap = (lines: string[]) =>
  Object.fromEntries(
    lines.map((l) => {
      const at = l.indexOf('=')
      return at < 0 ? [l, ''] : [l.slice(0, at).trim(), l.slice(at + 1).trim()]
    }),
  )

/** The input of one realm field, chosen from its stored type (and a widget for the structured ones). */
export function RealmFieldInput({ field, value, onChange, onBlur, error, disabled, stored, parents = [], topLevel }: RealmFieldProps) {
  const { t } = useTranslation()
  // A field added later without a label still shows (by its name) rather than a raw key.
  const label = t(`resources.realm.fields.${field}`, { defaultValue: field })
  const hintKey = `resources.realm.hints.${field}`
  const hint = t(hintKey, { defaultValue: '' }) || undefined
  const common = { label, onBlur, error, disabled, hint }
  switch (widgetOf(field)) {
    case 'bool':
      return <CheckboxField {...common} value={value === true} onChange={onChange} />
    case 'int':
      return <NumberField {...common} value={typeof value === 'number' ? value : Number.NaN} onChange={onChange} />
    case 'secret':
      return <SecretField {...common} value={String(value ?? '')} stored={stored ?? ''} onChange={onChange} />
    case 'lines':
      return <LinesField {...common} value={Array.isArray(value) ? value.map(String) : []} onChange={onChange} />
    case 'choices':
      return (
        <ChoicesField
          {...common}
          value={Array.isArray(value) ? value.map(String) : []}
          onChange={onChange}
          options={(CHOICES[field] ?? []).map((o) => ({ value: o, label: t(`resources.realm.choices.${o}`, { defaultValue: o }) }))}
        />
      )
    case 'select':
      return (
        <SelectField
          {...common}
          value={String(value ?? '')}
          onChange={onChange}
          options={(SELECTS[field] ?? []).map((o) => ({ value: o, label: t(`resources.realm.choices.${o}`, { defaultValue: o }) }))}
        />
      )
    case 'map':
      return (
        <LinesField
          {...common}
          hint={t('resources.realm.hints.auth_type', { kinds: USER_KINDS.join(', ') })}
          value={mapToLines(value)}
          onChange={(lines) => onChange(linesToMap(lines))}
        />
      )
    case 'json':
      return <JsonField {...common} value={value} onChange={onChange} />
    case 'parent':
      return (
        <SelectField
          {...common}
          value={typeof value === 'string' ? value : ''}
          onChange={(v) => onChange(v === '' ? null : v)}
          options={[
            ...(topLevel || !value ? [{ value: '', label: t('resources.realm.no_parent') }] : []),
            ...parents.map((p) => ({ value: p.code, label: `${p.name} (${p.code})` })),
          ]}
        />
      )
    case 'time_zone':
      return (
        <>
          <TextField {...common} value={String(value ?? '')} onChange={onChange} list="time-zones" />
          <datalist id="time-zones">
            {TIME_ZONES.map((tz) => (
              <option key={tz} value={tz} />
            ))}
          </datalist>
        </>
      )
    case 'url':
      // New realm URLs get https:// when missing (seed 000 §5), so a bare host is fine: no browser URL check.
      return <TextField {...common} hint={hint ?? t('resources.realm.hints.url')} value={String(value ?? '')} onChange={onChange} autoComplete="off" />
    default:
      return <TextField {...common} value={String(value ?? '')} onChange={onChange} autoComplete="off" />
  }
}
