import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import { TransferBody } from '#shared/schemas/ledger'
import { readNumber } from '~/lib/form-kit'
import { requireRoute } from '~/server/auth.server'
import { attempt, invalid, issuesAsErrors, type ActionResult } from './__ledger.server'
import { payingWallets } from './__ledger-movement.server'
import { SourcePicker, sourceBalance, splitTargets, TotalRequired } from './__ledger-movement-ui'
import { described, ErrorAlert, Field, newActionKey, useLiveValidation } from './__ledger-ui'

export const handle = { title: 'pages.ledger.transfer' }

type TransferAnswer = { billing_key: string; total: number; targets: string[] }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'ledger.transfer')
  // A fresh key on every render: a double submission of this form is one transfer; the next one gets a new key.
  return { wallets: await payingWallets(api, user), actionKey: newActionKey() }
}

/** Sends the transfer (seed 000 §7): targets, points per recipient, description, idempotency key, from_realm. */
/**
 * The transfer as reviewed: the API's body, each recipient a well-formed username, and (when the balance of the
 * paying wallet is known) a total within it — so the review never offers a transfer the API must refuse.
 */
const transferForm = (balance = Number.NaN) =>
  v.pipe(
    v.object({
      ...TransferBody.entries,
      targets: v.pipe(
        TransferBody.entries.targets,
        v.check((list) => list.every((n) => NICK.test(n)), 'ledger.validation.recipient'),
      ),
    }),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed || Number.isNaN(balance)) return
      const total = dataset.value.points * dataset.value.targets.length
      if (total > balance)
        addIssue({
          message: 'ledger.validation.over_balance',
          path: [{ type: 'object', origin: 'value', input: dataset.value, key: 'points', value: dataset.value.points }],
        })
    }),
  )
const NICK = /^[A-Za-z0-9][A-Za-z0-9._-]*(@[A-Za-z0-9][A-Za-z0-9._-]*)?$/

const typedPoints = (text: string) => {
  const n = readNumber(text)
  return typeof n === 'number' ? n : n === undefined ? undefined : Number.NaN
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.transfer')
  const form = await request.formData()
  const parsed = v.safeParse(transferForm(), {
    targets: splitTargets(String(form.get('targets') ?? '')),
    points: typedPoints(String(form.get('points') ?? '')),
    description: String(form.get('description') ?? ''),
    idempotency_key: String(form.get('idempotency_key') ?? ''),
    from_realm: String(form.get('from_realm') ?? '') || undefined,
  })
  if (!parsed.success) return invalid(issuesAsErrors(parsed.issues))
  const sent = await attempt(() => api.post<TransferAnswer>('ledger/transaction/transfer', parsed.output))
  return sent.ok ? ({ ok: true, errors: [], result: sent.value } satisfies ActionResult<TransferAnswer>) : sent.response
}

export default function TransferRoute() {
  const { wallets, actionKey } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<ActionResult<TransferAnswer>>()
  const formRef = useRef<HTMLFormElement>(null)
  const [values, setValues] = useState({ targets: '', points: '', description: '', from_realm: '' })
  const [confirming, setConfirming] = useState(false)
  const targets = splitTargets(values.targets)
  const points = typedPoints(values.points)
  const balance = sourceBalance(wallets, values.from_realm)
  const live = useLiveValidation(transferForm(balance), { targets, points, description: values.description })
  // A recipient's own error names the recipient as typed, never the field's internal path (targets.0).
  const targetError = live.errors.targets ?? Object.entries(live.errors).find(([k]) => k.startsWith('targets.'))?.[1]
  const wrongTarget = targets.find((n) => !NICK.test(n))
  const total = (Number.isFinite(points) ? (points ?? 0) : 0) * targets.length
  const sending = fetcher.state !== 'idle'
  const set = <K extends keyof typeof values>(k: K, value: string) => {
    setValues((s) => ({ ...s, [k]: value }))
    live.touch(k)
  }

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok && fetcher.data.result) {
      const r = fetcher.data.result
      toast.push({
        kind: 'success',
        message: 'ledger.transfer.done',
        values: { total: String(r.total), count: String(r.targets.length), billing_key: r.billing_key },
      })
      setValues((s) => ({ ...s, targets: '', description: '' }))
    } else if (!fetcher.data.ok) toast.pushErrors(fetcher.data.errors, { title: 'ledger.transfer.failed' })
  }, [fetcher.state, fetcher.data, toast])

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.transfer')}</h1>
      </div>
      <fetcher.Form
        ref={formRef}
        method="post"
        className="ledger-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault()
          if (live.attempt()) setConfirming(true)
        }}
      >
        <input type="hidden" name="idempotency_key" value={actionKey} />
        {fetcher.data && !fetcher.data.ok ? <ErrorAlert errors={fetcher.data.errors} title="ledger.transfer.failed" /> : null}
        <div className="card">
          <SourcePicker wallets={wallets} value={values.from_realm} onChange={(x) => set('from_realm', x)} />
          <Field
            id="transfer-targets"
            label={t('ledger.transfer.targets')}
            error={targetError ? t(targetError, { value: wrongTarget ?? '' }) : undefined}
            hint={t('ledger.transfer.targets_hint')}
          >
            <textarea
              className="input"
              name="targets"
              rows={3}
              value={values.targets}
              onChange={(e) => set('targets', e.currentTarget.value)}
              {...described('transfer-targets', targetError, true)}
            />
          </Field>
          {targets.length ? (
            <ul className="ledger-chips" aria-label={t('ledger.transfer.recipients', { count: targets.length })}>
              {targets.map((n, i) => (
                <li key={`${n}-${i}`} className="badge">
                  {n}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="ledger-grid">
            <Field
              id="transfer-points"
              label={t('ledger.transfer.points')}
              error={
                live.errors.points
                  ? t(live.errors.points, {
                      total: new Intl.NumberFormat(t('ledger.locale')).format(total),
                      balance: new Intl.NumberFormat(t('ledger.locale')).format(balance),
                    })
                  : undefined
              }
              hint={t('ledger.transfer.points_hint')}
            >
              <input
                className="input"
                name="points"
                inputMode="numeric"
                autoComplete="off"
                value={values.points}
                onChange={(e) => set('points', e.currentTarget.value)}
                {...described('transfer-points', live.errors.points, true)}
              />
            </Field>
            <Field id="transfer-description" label={t('ledger.movement.description')} error={live.errors.description}>
              <input
                className="input"
                name="description"
                maxLength={500}
                value={values.description}
                onChange={(e) => set('description', e.currentTarget.value)}
                {...described('transfer-description', live.errors.description)}
              />
            </Field>
          </div>
          <TotalRequired
            total={total}
            balance={sourceBalance(wallets, values.from_realm)}
            detail={t('ledger.transfer.detail', { count: targets.length, points: points ?? 0 })}
          />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? <span className="spinner" aria-hidden="true" /> : <Icon name="swap" />} {t('ledger.transfer.submit')}
          </button>
        </div>
      </fetcher.Form>
      <ConfirmDialog
        open={confirming}
        title={t('ledger.transfer.confirm_title')}
        message={t('ledger.transfer.confirm', {
          total: new Intl.NumberFormat(t('ledger.locale')).format(total),
          count: targets.length,
          targets: targets.join(', '),
        })}
        confirmLabel={t('ledger.transfer.confirm_yes')}
        cancelLabel={t('ledger.cancel')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false)
          if (formRef.current) fetcher.submit(formRef.current)
        }}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
