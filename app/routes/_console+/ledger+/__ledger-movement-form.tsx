import { useField } from '@conform-to/react'
import { useActionData } from '@remix-run/react'
import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from '~/i18n/react'
import * as v from 'valibot'
import { KitForm, SelectInput, TextInput } from '~/components/form/kit'
import { ConfirmDialog } from '~/components/ui/dialog'
import { encodeError, readNumber } from '~/lib/form-kit'
import { MAX_TARGETS, SponsorBody, TransferBody } from '#shared/schemas/ledger'
import { sourceBalance, splitTargets, TotalRequired, type Wallet } from './__ledger-movement-ui'

/**
 * The two screens that move credits out of a paying wallet (transfer to users, sponsor a realm): one form kit
 * screen with a review step. The form's schema is the API's body plus what the review can know beforehand (each
 * recipient well formed, the total within the paying wallet's balance); the action reviews first (recipients looked
 * up where the API allows) and moves the credits only when the review is confirmed (`confirmed=yes`), so the review
 * works without script too (an inline panel; with script, a dialog).
 */

const NICK = /^[A-Za-z0-9][A-Za-z0-9._-]*(@[A-Za-z0-9][A-Za-z0-9._-]*)?$/
const unique = (items: string[]) => new Set(items.map((x) => x.toLowerCase())).size === items.length

/** The total leaves the paying wallet's balance (when the caller may read it) — named with both figures. */
const withinBalance = <T extends { points: number; from_realm?: string }>(wallets: Wallet[], total: (value: T) => number) =>
  v.rawCheck<T>(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const balance = sourceBalance(wallets, dataset.value.from_realm ?? '')
    const sum = total(dataset.value)
    if (Number.isNaN(balance) || sum <= balance) return
    addIssue({
      message: encodeError({ message: 'ledger.validation.over_balance', cause: 'insufficient_credits', value: { total: sum, balance } }),
      path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'points', value: dataset.value.points }],
    })
  })

/** Recipients typed in one text box: each well formed (the message names the first wrong one), distinct, 1–100. */
const Targets = v.pipe(
  v.array(v.string()),
  v.minLength(1, 'ledger.validation.targets'),
  v.check(
    (list) => list.every((n) => NICK.test(n)),
    (issue) => encodeError({ message: 'ledger.validation.recipient', cause: 'invalid', value: (issue.input as string[]).find((n) => !NICK.test(n)) ?? '' }),
  ),
  v.maxLength(MAX_TARGETS, 'validation.max_items'),
  v.check(unique, 'ledger.validation.duplicate_targets'),
)

/** The transfer form: the API's body with the recipients read from one text box (the balance check needs the wallets). */
export const transferForm = (wallets: Wallet[] = []) =>
  v.pipe(
    v.object({ ...TransferBody.entries, targets: Targets }),
    withinBalance<v.InferOutput<typeof TransferBody>>(wallets, (x) => x.points * x.targets.length),
  )

export const sponsorForm = (wallets: Wallet[] = []) =>
  v.pipe(
    SponsorBody,
    withinBalance<v.InferOutput<typeof SponsorBody>>(wallets, (x) => x.points),
  )

/** Form values → the body the schema reads: the recipients' text box split into a list. */
export const prepareTransfer = (values: Record<string, unknown>) => ({ ...values, targets: splitTargets(String(values.targets ?? '')) })

/** What the action answers after a review: the figures the confirmation names. */
export interface MovementReview {
  total: number
  count: number
  points: number
  targets: string
  realm: string
}

export type MovementKind = 'transfer' | 'sponsor'

const useHydrated = () => {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}

/** The transfer or sponsor screen: source wallet, the kind's own fields, the live total, review and confirmation. */
export function MovementScreen({
  kind,
  wallets,
  actionKey,
  timeZone,
  defaultValue,
  intro,
  children,
}: {
  kind: MovementKind
  wallets: Wallet[]
  actionKey: string
  timeZone: string
  defaultValue?: Record<string, unknown>
  intro?: string
  /** The kind's own fields (recipients, or the sponsored realm). */
  children: ReactNode
}) {
  const { t } = useTranslation()
  const result = useActionData<{ review?: MovementReview; status?: string }>()
  const review = result?.review
  const hydrated = useHydrated()
  const [confirming, setConfirming] = useState(false)
  useEffect(() => setConfirming(!!review), [review])
  const formId = `${kind}-form`
  const n = (x: number) => new Intl.NumberFormat(t('ledger.locale')).format(x)
  const confirmText = review
    ? kind === 'transfer'
      ? t('ledger.transfer.confirm', { total: n(review.total), count: review.count, targets: review.targets })
      : t('ledger.sponsor.confirm', { points: n(review.points), realm: review.realm })
    : ''
  const schema = kind === 'transfer' ? transferForm(wallets) : sponsorForm(wallets)
  const labels = {
    targets: t('ledger.transfer.targets'),
    realm: t('ledger.sponsor.realm'),
    points: t(`ledger.${kind}.points`),
    description: t('ledger.movement.description'),
    from_realm: t('ledger.movement.source'),
  }
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t(`pages.ledger.${kind}`)}</h1>
          {intro ? <p className="hint">{intro}</p> : null}
        </div>
      </div>
      <KitForm
        // A fresh key after each movement (the loader's new idempotency key) starts an empty form.
        key={actionKey}
        id={formId}
        schema={schema}
        prepare={kind === 'transfer' ? prepareTransfer : undefined}
        lastResult={result}
        defaultValue={defaultValue}
        timeZone={timeZone}
        labels={labels}
        submitLabel={t(`ledger.${kind}.submit`)}
        className="card ledger-form"
      >
        <input type="hidden" name="idempotency_key" value={actionKey} />
        <SourceField wallets={wallets} />
        {children}
        <TextInput name="description" label={t('ledger.movement.description')} maxLength={500} />
        <LiveTotal kind={kind} wallets={wallets} />
      </KitForm>
      {/* The dialog's confirm button presses this one: the same form, posted with the review confirmed. Outside the
          form's markup so that Enter in a field still submits for review (the form's first submit button). */}
      <button type="submit" form={formId} name="confirmed" value="yes" id={`${formId}-confirm`} hidden tabIndex={-1} />
      {review && !hydrated ? (
        <section className="card ledger-form ledger-review" aria-labelledby={`${formId}-review`}>
          <h2 id={`${formId}-review`}>{t(`ledger.${kind}.confirm_title`)}</h2>
          <p>{confirmText}</p>
          <button type="submit" form={formId} name="confirmed" value="yes" className="btn btn-primary">
            {t(`ledger.${kind}.confirm_yes`)}
          </button>
        </section>
      ) : null}
      <ConfirmDialog
        open={confirming && hydrated}
        title={t(`ledger.${kind}.confirm_title`)}
        message={confirmText}
        confirmLabel={t(`ledger.${kind}.confirm_yes`)}
        cancelLabel={t('ledger.cancel')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false)
          document.getElementById(`${formId}-confirm`)?.click()
        }}
      />
    </>
  )
}

/** The paying wallet (`''` the caller's own, else a realm code), offered when there is a choice. */
function SourceField({ wallets }: { wallets: Wallet[] }) {
  const { t } = useTranslation()
  if (wallets.length < 2) return <input type="hidden" name="from_realm" value="" />
  const locale = t('ledger.locale')
  const options = wallets.map((w) => ({
    value: w.kind === 'user' ? '' : w.owner,
    label:
      t(w.kind === 'user' ? 'ledger.movement.source_own' : 'ledger.movement.source_realm', { name: w.name || w.owner }) +
      (Number.isNaN(w.points) ? '' : ` — ${new Intl.NumberFormat(locale).format(w.points)}`),
  }))
  return <SelectInput name="from_realm" label={t('ledger.movement.source')} options={options} />
}

/** The recipients as chips, and the total against the paying wallet's balance, following what is typed. */
function LiveTotal({ kind, wallets }: { kind: MovementKind; wallets: Wallet[] }) {
  const { t } = useTranslation()
  const [targetsField] = useField<string>('targets')
  const [pointsField] = useField<string>('points')
  const [sourceField] = useField<string>('from_realm')
  const typed = readNumber(String(pointsField.value ?? ''))
  const points = typeof typed === 'number' && Number.isFinite(typed) ? typed : 0
  const targets = kind === 'transfer' ? splitTargets(String(targetsField.value ?? '')) : []
  const total = kind === 'transfer' ? points * targets.length : points
  return (
    <>
      {targets.length ? (
        <ul className="ledger-chips" aria-label={t('ledger.transfer.recipients', { count: targets.length })}>
          {targets.map((nick, i) => (
            <li key={`${nick}-${i}`} className="badge">
              {nick}
            </li>
          ))}
        </ul>
      ) : null}
      <TotalRequired
        total={total}
        balance={sourceBalance(wallets, String(sourceField.value ?? ''))}
        detail={kind === 'transfer' ? t('ledger.transfer.detail', { count: targets.length, points }) : undefined}
      />
    </>
  )
}
