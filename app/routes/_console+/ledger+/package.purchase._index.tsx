import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { Icon } from '~/components/ui/icon'
import { RouteError } from '~/components/shell/route-error'
import { abbreviate, money } from '~/lib/format'
import { orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { loadShop } from './__ledger-purchase.server'

export const handle = { title: 'pages.ledger.purchase' }

/** The packages on sale (seed 000 §2.2: no permission gate, only ledger_enabled). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.purchase')
  return orErrorResponse(loadShop(api))
}

export default function PurchaseRoute() {
  const { packages, providers } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const locale = t('ledger.locale')
  const payable = providers.some((p) => p.available)
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{t('pages.ledger.purchase')}</h1>
          <p className="hint">{t('ledger.purchase.intro')}</p>
        </div>
      </div>
      {payable ? null : (
        <div className="alert alert-info" role="status">
          {t('ledger.purchase.no_provider')}
        </div>
      )}
      {packages.length === 0 ? (
        <p className="card" role="status">
          {t('ledger.purchase.empty')}
        </p>
      ) : (
        <ul className="ledger-packages">
          {packages.map((p) => (
            <li key={p.id} className={`card ledger-package${p.recommended ? ' ledger-package-recommended' : ''}`}>
              {p.recommended ? <span className="badge">{t('resources.ledger_package.fields.recommended')}</span> : null}
              <h2>{p.name}</h2>
              <p className="ledger-package-points">
                <strong title={new Intl.NumberFormat(locale).format(p.points)}>{abbreviate(p.points, locale)}</strong> {t('ledger.points')}
              </p>
              <p className="ledger-package-price">{money(p.cost, p.currency, locale)}</p>
              {p.description ? <p className="hint">{p.description}</p> : null}
              <Link
                to={`/ledger/package/purchase/${encodeURIComponent(p.id)}`}
                className="btn btn-primary"
                aria-label={t('ledger.purchase.buy_named', { name: p.name })}
              >
                <Icon name="coin" /> {t('ledger.purchase.buy')}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

export const ErrorBoundary = RouteError
