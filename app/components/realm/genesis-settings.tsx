import { useFetcher } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { FieldSpec } from '~/lib/form-fields'
import { DEFAULT_TIME_ZONE } from '~/lib/form-kit'
import { CONFIG_TYPES, GENESIS_SETTING_KINDS, GenesisSettingsInput, type ConfigType, type GenesisSettings } from '#shared/schemas/lesson/genesis'
import { Fieldset, KitForm, SpecField } from '../form/kit'
import { useToast } from '../ui/toast'

/** A configuration a default may point at. */
export interface ConfigChoice {
  id: string
  type: ConfigType
  title: string
}

/**
 * The realm's content-generation settings form (seed 001 §3, `GenesisSettingsInput`): per kind whether it is
 * generated and whether users may pick another configuration, the default configuration of each type (a picker of
 * that type's configurations) and the intro video limits.
 */
export function genesisSettingsFields(configs: ConfigChoice[]) {
  const activate: FieldSpec[] = GENESIS_SETTING_KINDS.map((k) => ({ name: `activate.${k}`, label: `cgs.settings.activate.${k}`, kind: 'checkbox' }))
  const allow: FieldSpec[] = GENESIS_SETTING_KINDS.map((k) => ({ name: `allow_custom.${k}`, label: `cgs.settings.allow_custom.${k}`, kind: 'checkbox' }))
  const defaults: FieldSpec[] = CONFIG_TYPES.map((type) => ({
    name: `default_config.${type}`,
    label: `genesis.kind.${type}`,
    kind: 'select',
    nullable: true,
    options: configs.filter((c) => c.type === type).map((c) => ({ value: c.id, label: c.title })),
  }))
  const limits: FieldSpec[] = (['max_intro_size', 'max_intro_kbps', 'max_intro_duration'] as const).map((name) => ({
    name,
    label: `cgs.settings.${name}`,
    kind: 'number',
    step: '1',
    min: 1,
  }))
  return { activate, allow, defaults, limits, all: [...activate, ...allow, ...defaults, ...limits] }
}

/** The form, posting `intent=genesis` to the realm edit route (a fetcher: the page stays). */
export function GenesisSettingsEditor({ settings, configs }: { settings: GenesisSettings; configs: ConfigChoice[] }) {
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher({ key: 'realm-genesis' })
  const f = genesisSettingsFields(configs)
  const group = (legend: string, fields: FieldSpec[]) => (
    <Fieldset legend={t(legend)}>
      {fields.map((spec) => (
        <SpecField key={spec.name} spec={spec} timeZone={DEFAULT_TIME_ZONE} />
      ))}
    </Fieldset>
  )
  return (
    <section aria-labelledby="genesis-settings-title">
      <h2 id="genesis-settings-title">{t('cgs.settings.title')}</h2>
      <p className="hint">{t('cgs.settings.intro')}</p>
      <KitForm
        id="genesis-settings-form"
        schema={GenesisSettingsInput}
        fields={f.all}
        defaultValue={settings as unknown as Record<string, unknown>}
        timeZone={DEFAULT_TIME_ZONE}
        fetcher={fetcher}
        lastResult={fetcher.data}
        onSaved={() => toast.push({ kind: 'success', message: 'cgs.settings.saved' })}
        className="simple-form"
        aria-label={t('cgs.settings.title')}
        protect
      >
        <input type="hidden" name="intent" value="genesis" />
        {group('cgs.settings.activate_legend', f.activate)}
        {group('cgs.settings.allow_custom_legend', f.allow)}
        {group('cgs.settings.default_legend', f.defaults)}
        {group('cgs.settings.intro_legend', f.limits)}
      </KitForm>
    </section>
  )
}
