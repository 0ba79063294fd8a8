import { Form, Link, useActionData, useNavigation } from '@remix-run/react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Icon } from '~/components/ui/icon'
import { money } from '~/lib/format'
import { CURRENCIES, PackageCreate, parseCost, type Currency } from '#shared/schemas/ledger'
import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import type { ActionResult } from './__ledger.server'
import { described, ErrorAlert, Field, useLiveValidation } from './__ledger-ui'

/** The form's text values → the API body (the schema turns cost text into a number). */
export function packageBody(v: { name: string; description: string; cost: string; currency: string; points: string; enabled: boolean; recommended: boolean }) {
  return { ...v, points: v.points.trim() === '' ? undefined : Number(v.points) }
}

/** Create and edit form of a credit package; validated live with the API's own schema (PackageCreate). */
export function PackageForm({ initial }: { initial?: LedgerPackage }) {
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const action = useActionData<ActionResult>()
  const saving = useNavigation().state === 'submitting'
  const [values, setValues] = useState({
    name: initial?.name ?? '',
    description: initial?.description ?? '',
    cost: initial ? initial.cost.toFixed(2) : '',
    currency: (initial?.currency ?? 'BRL') as Currency,
    points: initial ? String(initial.points) : '',
    enabled: initial?.enabled ?? true,
    recommended: initial?.recommended ?? false,
  })
  const live = useLiveValidation(PackageCreate, packageBody(values))
  const server = Object.fromEntries((action?.errors ?? []).map((e) => [e.field, e.message]))
  const error = (f: string) => live.errors[f] ?? server[f]
  const set = <K extends keyof typeof values>(k: K, value: (typeof values)[K]) => {
    setValues((s) => ({ ...s, [k]: value }))
    live.touch(k)
  }
  const cost = parseCost(values.cost)

  return (
    <Form method="post" className="ledger-form" noValidate onSubmit={(e) => !live.attempt() && e.preventDefault()}>
      <ErrorAlert errors={action?.errors} title="resources.ledger_package.save_failed" />
      <div className="card">
        <Field id="pkg-name" label={t('resources.ledger_package.fields.name')} error={error('name')}>
          <input
            className="input"
            name="name"
            value={values.name}
            maxLength={80}
            required
            onChange={(e) => set('name', e.currentTarget.value)}
            {...described('pkg-name', error('name'))}
          />
        </Field>
        <Field id="pkg-description" label={t('resources.ledger_package.fields.description')} error={error('description')}>
          <textarea
            className="input"
            name="description"
            rows={2}
            maxLength={500}
            value={values.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            {...described('pkg-description', error('description'))}
          />
        </Field>
        <div className="ledger-grid">
          <Field
            id="pkg-cost"
            label={t('resources.ledger_package.fields.cost')}
            error={error('cost')}
            hint={
              Number.isNaN(cost)
                ? t('resources.ledger_package.cost_hint')
                : t('resources.ledger_package.cost_preview', { value: money(cost, values.currency, locale) })
            }
          >
            <input
              className="input"
              name="cost"
              inputMode="decimal"
              value={values.cost}
              required
              onChange={(e) => set('cost', e.currentTarget.value)}
              {...described('pkg-cost', error('cost'), true)}
            />
          </Field>
          <Field id="pkg-currency" label={t('resources.ledger_package.fields.currency')} error={error('currency')}>
            <select
              className="input"
              name="currency"
              value={values.currency}
              onChange={(e) => set('currency', e.currentTarget.value as Currency)}
              {...described('pkg-currency', error('currency'))}
            >
              {CURRENCIES.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </Field>
          <Field id="pkg-points" label={t('resources.ledger_package.fields.points')} error={error('points')} hint={t('resources.ledger_package.points_hint')}>
            <input
              className="input"
              name="points"
              inputMode="numeric"
              value={values.points}
              required
              onChange={(e) => set('points', e.currentTarget.value.replace(/\D+/g, ''))}
              {...described('pkg-points', error('points'), true)}
            />
          </Field>
        </div>
        <div className="ledger-switches">
          <label className="switch">
            <input type="checkbox" name="enabled" checked={values.enabled} onChange={(e) => set('enabled', e.currentTarget.checked)} />{' '}
            {t('resources.ledger_package.fields.enabled')}
          </label>
          <label className="switch">
            <input type="checkbox" name="recommended" checked={values.recommended} onChange={(e) => set('recommended', e.currentTarget.checked)} />{' '}
            {t('resources.ledger_package.fields.recommended')}
          </label>
        </div>
      </div>
      <div className="form-actions">
        <Link to="/ledger/package" className="btn">
          {t('ledger.cancel')}
        </Link>
        <button type="submit" className="btn btn-primary" disabled={saving}>
          {saving ? <span className="spinner" aria-hidden="true" /> : <Icon name="check" />} {t('ledger.save')}
        </button>
      </div>
    </Form>
  )
}
