import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { orErrorResponse, apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { PackageForm } from './__ledger-package-form'
import { savePackage } from './__ledger-package.server'

export const handle = { title: 'pages.ledger.package.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, realm } = await requireRoute(request, context, 'ledger.package.edit')
  const pkg = await orErrorResponse(apiData(api.ledger.package[':id'].$get({ param: { id: params.packageId ?? '' } })))
  return { pkg, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => savePackage(request, context, params.packageId ?? '')

export default function PackageEditRoute() {
  const { pkg, timeZone } = useLoaderData<typeof loader>()
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
      <PackageForm key={pkg.id} initial={pkg} timeZone={timeZone} />
    </>
  )
}

export const ErrorBoundary = RouteError
