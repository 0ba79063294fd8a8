import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { DEFAULT_TIME_ZONE } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { PackageForm } from './__ledger-package-form'
import { savePackage } from './__ledger-package.server'

export const handle = { title: 'pages.ledger.package.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { realm } = await requireRoute(request, context, 'ledger.package.create')
  return { timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) => savePackage(request, context)

export default function PackageCreateRoute() {
  const { t } = useTranslation()
  const { timeZone } = useLoaderData<typeof loader>()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.package.create')}</h1>
      </div>
      <PackageForm timeZone={timeZone} />
    </>
  )
}

export const ErrorBoundary = RouteError
