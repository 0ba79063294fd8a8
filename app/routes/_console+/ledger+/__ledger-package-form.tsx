import { useField } from '@conform-to/react'
import { Link, useActionData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { CheckboxInput, NumberInput, SelectInput, TextArea, TextInput } from '~/components/form/kit'
import { KitForm } from '~/components/form/kit'
import { money } from '~/lib/format'
import { CURRENCIES, PackageCreate, PackageUpdate, parseCost } from '#shared/schemas/ledger'
import type { LedgerPackage } from '#shared/schemas/ledger-entity'

/** Form values → the API body: an unchecked switch is absent from the form data, so it is false (not the default). */
export const preparePackage = (values: Record<string, unknown>) => ({ ...values, enabled: values.enabled === true, recommended: values.recommended === true })

/** Create and edit form of a credit package (form kit; the API's own schema, PackageCreate or PackageUpdate). */
export function PackageForm({ initial, timeZone }: { initial?: LedgerPackage; timeZone: string }) {
  const { t } = useTranslation()
  const f = (name: string) => t(`resources.ledger_package.fields.${name}`)
  return (
    <KitForm
      schema={initial ? PackageUpdate : PackageCreate}
      prepare={preparePackage}
      lastResult={useActionData()}
      timeZone={timeZone}
      protect
      defaultValue={{
        name: initial?.name ?? '',
        description: initial?.description ?? '',
        cost: initial ? initial.cost.toFixed(2).replace('.', t('ledger.locale').startsWith('en') ? '.' : ',') : '',
        currency: initial?.currency ?? 'BRL',
        points: initial ? String(initial.points) : '',
        enabled: initial?.enabled ?? true,
        recommended: initial?.recommended ?? false,
      }}
      labels={Object.fromEntries(['name', 'description', 'cost', 'currency', 'points'].map((k) => [k, f(k)]))}
      submitLabel={t('ledger.save')}
      className="card ledger-form"
      actions={
        <Link to="/ledger/package" className="btn">
          {t('ledger.cancel')}
        </Link>
      }
    >
      <TextInput name="name" label={f('name')} maxLength={80} required />
      <TextArea name="description" label={f('description')} rows={2} />
      <div className="ledger-grid">
        <CostField />
        <SelectInput name="currency" label={f('currency')} options={CURRENCIES.map((c) => ({ value: c, label: c }))} />
        <NumberInput name="points" label={f('points')} hint={t('resources.ledger_package.points_hint')} decimal={false} required />
      </div>
      <div className="ledger-switches">
        <CheckboxInput name="enabled" label={f('enabled')} />
        <CheckboxInput name="recommended" label={f('recommended')} />
      </div>
    </KitForm>
  )
}

/** The cost as typed (`99,90`, `R$ 1.234,56`), with the amount it reads as in the chosen currency. */
function CostField() {
  const { t } = useTranslation()
  const [cost] = useField<string>('cost')
  const [currency] = useField<string>('currency')
  const value = parseCost(String(cost.value ?? ''))
  const hint = Number.isNaN(value)
    ? t('resources.ledger_package.cost_hint')
    : t('resources.ledger_package.cost_preview', { value: money(value, String(currency.value ?? 'BRL'), t('ledger.locale')) })
  return <TextInput name="cost" label={t('resources.ledger_package.fields.cost')} hint={hint} required />
}
