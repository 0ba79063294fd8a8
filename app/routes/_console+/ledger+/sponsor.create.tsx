import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useFetcher, useLoaderData } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { ConfirmDialog } from '~/components/ui/dialog'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { useToast } from '~/components/ui/toast'
import type { ListPage } from '#shared/schemas/common'
import { SponsorBody } from '#shared/schemas/ledger'
import { requireRoute } from '~/server/auth.server'
import { attempt, invalid, issuesAsErrors, numberField, type ActionResult } from './__ledger.server'
import { payingWallets } from './__ledger-movement.server'
import { SourcePicker, sourceBalance, TotalRequired } from './__ledger-movement-ui'
import { described, ErrorAlert, Field, newActionKey, useLiveValidation } from './__ledger-ui'

export const handle = { title: 'pages.ledger.sponsor' }

type SponsorAnswer = { billing_key: string; points: number; realm: string }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'ledger.sponsor')
  // The realms the caller administers, when they may list them; otherwise the realm code is typed.
  const realms = user.permissions.mas_realm_list ? (await api.get<ListPage<{ code: string; name: string }>>('mas/realm', { limit: 1000 })).items : []
  return { wallets: await payingWallets(api, user), realms, realm: user.realm, actionKey: newActionKey() }
}

/** Funds a realm's wallet (seed 000 §7 POST ledger/transaction/sponsor). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.sponsor')
  const form = await request.formData()
  const parsed = v.safeParse(SponsorBody, {
    realm: String(form.get('realm') ?? ''),
    points: numberField(form.get('points')),
    description: String(form.get('description') ?? ''),
    idempotency_key: String(form.get('idempotency_key') ?? ''),
    from_realm: String(form.get('from_realm') ?? '') || undefined,
  })
  if (!parsed.success) return invalid(issuesAsErrors(parsed.issues))
  const sent = await attempt(() => api.post<SponsorAnswer>('ledger/transaction/sponsor', parsed.output))
  return sent.ok ? ({ ok: true, errors: [], result: sent.value } satisfies ActionResult<SponsorAnswer>) : sent.response
}

export default function SponsorRoute() {
  const { wallets, realms, realm, actionKey } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const toast = useToast()
  const fetcher = useFetcher<ActionResult<SponsorAnswer>>()
  const formRef = useRef<HTMLFormElement>(null)
  const [values, setValues] = useState({ realm, points: '', description: '', from_realm: '' })
  const [confirming, setConfirming] = useState(false)
  const points = values.points === '' ? undefined : Number(values.points)
  const live = useLiveValidation(SponsorBody, { realm: values.realm, points, description: values.description })
  const sending = fetcher.state !== 'idle'
  const set = <K extends keyof typeof values>(k: K, value: string) => {
    setValues((s) => ({ ...s, [k]: value }))
    live.touch(k)
  }

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return
    if (fetcher.data.ok && fetcher.data.result) {
      const r = fetcher.data.result
      toast.push({ kind: 'success', message: 'ledger.sponsor.done', values: { points: String(r.points), realm: r.realm, billing_key: r.billing_key } })
      setValues((s) => ({ ...s, points: '', description: '' }))
    } else if (!fetcher.data.ok) toast.pushErrors(fetcher.data.errors, { title: 'ledger.sponsor.failed' })
  }, [fetcher.state, fetcher.data, toast])

  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.ledger.sponsor')}</h1>
          <p className="hint">{t('ledger.sponsor.intro')}</p>
        </div>
      </div>
      <fetcher.Form
        ref={formRef}
        method="post"
        className="ledger-form"
        noValidate
        onSubmit={(e) => (e.preventDefault(), live.attempt() && setConfirming(true))}
      >
        <input type="hidden" name="idempotency_key" value={actionKey} />
        {fetcher.data && !fetcher.data.ok ? <ErrorAlert errors={fetcher.data.errors} title="ledger.sponsor.failed" /> : null}
        <div className="card">
          <SourcePicker wallets={wallets} value={values.from_realm} onChange={(x) => set('from_realm', x)} />
          <div className="ledger-grid">
            <Field id="sponsor-realm" label={t('ledger.sponsor.realm')} error={live.errors.realm}>
              {realms.length ? (
                <select
                  className="input"
                  name="realm"
                  value={values.realm}
                  onChange={(e) => set('realm', e.currentTarget.value)}
                  {...described('sponsor-realm', live.errors.realm)}
                >
                  {realms.map((r) => (
                    <option key={r.code} value={r.code}>
                      {r.name} ({r.code})
                    </option>
                  ))}
                </select>
              ) : (
                <input
                  className="input"
                  name="realm"
                  value={values.realm}
                  onChange={(e) => set('realm', e.currentTarget.value)}
                  {...described('sponsor-realm', live.errors.realm)}
                />
              )}
            </Field>
            <Field id="sponsor-points" label={t('ledger.sponsor.points')} error={live.errors.points}>
              <input
                className="input"
                name="points"
                inputMode="numeric"
                value={values.points}
                onChange={(e) => set('points', e.currentTarget.value.replace(/\D+/g, ''))}
                {...described('sponsor-points', live.errors.points)}
              />
            </Field>
          </div>
          <Field id="sponsor-description" label={t('ledger.movement.description')} error={live.errors.description}>
            <input
              className="input"
              name="description"
              maxLength={500}
              value={values.description}
              onChange={(e) => set('description', e.currentTarget.value)}
              {...described('sponsor-description', live.errors.description)}
            />
          </Field>
          <TotalRequired total={points ?? 0} balance={sourceBalance(wallets, values.from_realm)} />
        </div>
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? <span className="spinner" aria-hidden="true" /> : <Icon name="coin" />} {t('ledger.sponsor.submit')}
          </button>
        </div>
      </fetcher.Form>
      <ConfirmDialog
        open={confirming}
        title={t('ledger.sponsor.confirm_title')}
        message={t('ledger.sponsor.confirm', { points: new Intl.NumberFormat(t('ledger.locale')).format(points ?? 0), realm: values.realm })}
        confirmLabel={t('ledger.sponsor.confirm_yes')}
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
