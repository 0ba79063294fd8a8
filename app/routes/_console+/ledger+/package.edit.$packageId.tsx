import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import type { LedgerPackage } from '#shared/schemas/ledger-entity'
import { orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { PackageForm } from './__ledger-package-form'
import { savePackage } from './__ledger-package.server'

export const handle = { title: 'pages.ledger.package.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'ledger.package.edit')
  return orErrorResponse(api.get<LedgerPackage>(`ledger/package/${encodeURIComponent(params.packageId ?? '')}`))
}

export const action = ({ request, context, params }: ActionFunctionArgs) => savePackage(request, context, params.packageId ?? '')

export default function PackageEditRoute() {
  const pkg = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t('pages.ledger.package.edit')}: {pkg.name}
          </h1>
          <p className="hint">{t('ledger.updated', { by: pkg.updated_by || '—', at: formatTime(pkg.updated_at, clock) })}</p>
        </div>
      </div>
      <PackageForm key={pkg.id} initial={pkg} />
    </>
  )
}

export const ErrorBoundary = RouteError
