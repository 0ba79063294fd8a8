import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { abbreviate, money } from '~/lib/format'
import type { ErrorItem } from '#shared/schemas/error'
import { IdempotencyKey } from '#shared/schemas/ledger'
import { orErrorResponse, RealmApiError } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { attempt, invalid, type ActionResult } from './__ledger.server'
import { loadShop, type IntentStatus } from './__ledger-purchase.server'
import { ErrorAlert, newActionKey } from './__ledger-ui'

export const handle = { title: 'pages.ledger.purchase' }

/** The package, the providers, and — back from the provider's checkout (`?intent=`) — where the payment stands. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.purchase.package')
  const shop = await orErrorResponse(loadShop(api))
  const pkg = shop.packages.find((p) => p.id === params.packageId)
  if (!pkg) throw new Response(null, { status: 404 })
  const intentId = new URL(request.url).searchParams.get('intent')
  let intent: IntentStatus | null = null
  if (intentId) {
    intent = await api.get<IntentStatus>(`ledger/transaction/intent/${encodeURIComponent(intentId)}`).catch((err: unknown) => {
      if (err instanceof RealmApiError && err.status === 404) return null
      throw err
    })
  }
  return { pkg, providers: shop.providers, intent, actionKey: newActionKey() }
}

/** Starts the payment: a card intent or a regional purchase, then off to the provider's checkout page. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.purchase.package')
  const form = await request.formData()
  const shop = await loadShop(api)
  const pkg = shop.packages.find((p) => p.id === params.packageId)
  const provider = shop.providers.find((p) => p.code === form.get('provider') && p.available)
  const key = v.safeParse(IdempotencyKey, form.get('idempotency_key') ?? '')
  const refuse = (field: string, message: string): ErrorItem[] => [{ field, cause: 'purchase_failed', value: null, message }]
  if (!pkg) return invalid(refuse('product_id', 'ledger.error.package_not_found'))
  if (!provider) return invalid(refuse('provider', 'ledger.error.provider_unavailable'))
  if (!key.success) return invalid(refuse('idempotency_key', 'ledger.validation.idempotency_key'))
  const returnUrl = `/ledger/package/purchase/${encodeURIComponent(pkg.id)}`
  const started = await attempt(() =>
    provider.kind === 'card'
      ? api.post<{ checkout_url: string }>('ledger/transaction/create-intent', {
          provider: provider.code,
          product_id: pkg.id,
          product_type: 'package',
          idempotency_key: key.output,
          provider_data: { return_url: returnUrl },
        })
      : api.post<{ checkout_url: string }>('ledger/transaction/purchase', {
          provider: provider.code,
          product_id: pkg.id,
          product_type: 'package',
          idempotency_key: key.output,
          provider_data: { transaction_amount: pkg.cost, description: pkg.name, return_url: returnUrl },
        }),
  )
  if (!started.ok) return started.response
  throw redirect(started.value.checkout_url)
}

/** While the provider has not confirmed yet, the page asks again every few seconds (for about a minute). */
function usePendingRefresh(pending: boolean) {
  const revalidator = useRevalidator()
  const tries = useRef(0)
  useEffect(() => {
    if (!pending || tries.current >= 20) return
    const timer = setTimeout(() => {
      tries.current++
      revalidator.revalidate()
    }, 3000)
    return () => clearTimeout(timer)
  }, [pending, revalidator])
}

export default function PurchasePackageRoute() {
  const { pkg, providers, intent, actionKey } = useLoaderData<typeof loader>()
  const action = useActionData<ActionResult>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const starting = useNavigation().state !== 'idle'
  const usable = providers.filter((p) => p.available)
  const [provider, setProvider] = useState(usable[0]?.code ?? '')
  usePendingRefresh(intent?.status === 'pending')
  const showForm = !intent || intent.status === 'failed'

  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.purchase')}</h1>
        <Link to="/ledger/package/purchase" className="btn">
          {t('ledger.purchase.back')}
        </Link>
      </div>
      <section className="card ledger-checkout" aria-labelledby="pkg-title">
        <h2 id="pkg-title">{pkg.name}</h2>
        <p className="ledger-package-points">
          <strong title={new Intl.NumberFormat(locale).format(pkg.points)}>{abbreviate(pkg.points, locale)}</strong> {t('ledger.points')}
        </p>
        <p className="ledger-package-price">{money(pkg.cost, pkg.currency, locale)}</p>
        {pkg.description ? <p className="hint">{pkg.description}</p> : null}
      </section>

      {intent?.status === 'succeeded' ? (
        <div className="alert alert-success" role="status">
          <strong>{t('ledger.purchase.succeeded', { points: new Intl.NumberFormat(locale).format(intent.points) })}</strong>
          <p>
            <Link to="/ledger/package/purchase">{t('ledger.purchase.more')}</Link>
          </p>
        </div>
      ) : intent?.status === 'pending' ? (
        <div className="alert alert-info" role="status">
          <span className="spinner" aria-hidden="true" /> {t('ledger.purchase.pending')}
        </div>
      ) : intent?.status === 'failed' ? (
        <div className="alert alert-error" role="alert">
          <strong>{t('ledger.error.purchase_process')}</strong> {t(`ledger.failure.${intent.failure}`, { defaultValue: intent.failure })}
        </div>
      ) : null}

      {showForm ? (
        <Form method="post" className="card">
          <input type="hidden" name="idempotency_key" value={actionKey} />
          <ErrorAlert errors={action?.errors} title="ledger.error.purchase_process" />
          <fieldset className="ledger-providers">
            <legend>{t('ledger.purchase.provider')}</legend>
            {providers.map((p) => (
              <label key={p.code} className="radio">
                <input type="radio" name="provider" value={p.code} checked={provider === p.code} disabled={!p.available} onChange={() => setProvider(p.code)} />
                <span>
                  {t(`ledger.provider.${p.kind}`)}
                  {p.sandbox ? <span className="badge">{t('ledger.provider.sandbox')}</span> : null}
                  {p.available ? null : <span className="hint"> — {t('ledger.provider.not_configured')}</span>}
                </span>
              </label>
            ))}
          </fieldset>
          {usable.length === 0 ? <p role="status">{t('ledger.purchase.no_provider')}</p> : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={starting || !provider}>
              {starting ? <span className="spinner" aria-hidden="true" /> : <Icon name="coin" />}{' '}
              {t('ledger.purchase.pay', { price: money(pkg.cost, pkg.currency, locale) })}
            </button>
          </div>
        </Form>
      ) : null}
    </>
  )
}

export const ErrorBoundary = RouteError
