import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData, useRevalidator } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { KitForm, RadioGroup } from '~/components/form/kit'
import { RouteError } from '~/components/shell/route-error'
import { abbreviate, money } from '~/lib/format'
import { IdempotencyKey } from '#shared/schemas/ledger'
import { apiAction, DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { apiData, orErrorResponse, orNull, RealmApiError } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { newActionKey } from './__ledger.server'
import { loadShop } from './__ledger-purchase.server'

export const handle = { title: 'pages.ledger.purchase' }

/** The package, the providers, and — back from the provider's checkout (`?intent=`) — where the payment stands. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'ledger.purchase.package')
  const shop = await orErrorResponse(loadShop(api))
  const pkg = shop.packages.find((p) => p.id === params.packageId)
  if (!pkg) throw new Response(null, { status: 404 })
  const intentId = new URL(request.url).searchParams.get('intent')
  const intent = intentId ? await orNull(apiData(api.ledger.transaction.intent[':id'].$get({ param: { id: intentId } }))) : null
  return { pkg, providers: shop.providers, intent, actionKey: newActionKey(), timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

/** The purchase form: the provider chosen and the action's idempotency key. */
const PurchaseForm = v.object({
  provider: v.pipe(v.string('ledger.error.provider_unavailable'), v.minLength(1, 'ledger.error.provider_unavailable')),
  idempotency_key: IdempotencyKey,
})

/** Starts the payment: a card intent or a regional purchase, then off to the provider's checkout page. */
export const action = ({ request, context, params }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'ledger.purchase.package',
    schema: PurchaseForm,
    call: async (api, body) => {
      const shop = await loadShop(api)
      const pkg = shop.packages.find((p) => p.id === params.packageId)
      const provider = shop.providers.find((p) => p.code === body.provider && p.available)
      const refuse = (field: string, message: string) => new RealmApiError(400, [{ field, cause: 'purchase_failed', value: null, message }])
      if (!pkg) throw refuse('', 'ledger.error.package_not_found')
      if (!provider) throw refuse('provider', 'ledger.error.provider_unavailable')
      const returnUrl = `/ledger/package/purchase/${encodeURIComponent(pkg.id)}`
      const common = { provider: provider.code, product_id: pkg.id, product_type: 'package' as const, idempotency_key: body.idempotency_key }
      return provider.kind === 'card'
        ? apiData(api.ledger.transaction['create-intent'].$post({ json: { ...common, provider_data: { return_url: returnUrl } } }))
        : apiData(
            api.ledger.transaction.purchase.$post({
              json: { ...common, provider_data: { transaction_amount: pkg.cost, description: pkg.name, return_url: returnUrl } },
            }),
          )
    },
    onSuccess: (started) => redirect(started.checkout_url),
  })

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
  const { pkg, providers, intent, actionKey, timeZone } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const lastResult = useActionData<typeof action>()
  const usable = providers.filter((p) => p.available)
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
        <KitForm
          key={actionKey}
          schema={PurchaseForm}
          lastResult={lastResult}
          timeZone={timeZone}
          defaultValue={{ provider: usable[0]?.code ?? '' }}
          labels={{ provider: t('ledger.purchase.provider') }}
          submitLabel={t('ledger.purchase.pay', { price: money(pkg.cost, pkg.currency, locale) })}
          className="card"
        >
          <input type="hidden" name="idempotency_key" value={actionKey} />
          <RadioGroup
            name="provider"
            label={t('ledger.purchase.provider')}
            className="ledger-providers"
            options={providers.map((p) => ({
              value: p.code,
              disabled: !p.available,
              label: (
                <>
                  {t(`ledger.provider.${p.kind}`)}
                  {p.sandbox ? <span className="badge">{t('ledger.provider.sandbox')}</span> : null}
                  {p.available ? null : <span className="hint"> — {t('ledger.provider.not_configured')}</span>}
                </>
              ),
            }))}
          />
          {usable.length === 0 ? <p role="status">{t('ledger.purchase.no_provider')}</p> : null}
        </KitForm>
      ) : null}
    </>
  )
}

export const ErrorBoundary = RouteError
