import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { requireRoute } from '~/server/auth.server'
import { PackageForm } from './__ledger-package-form'
import { savePackage } from './__ledger-package.server'

export const handle = { title: 'pages.ledger.package.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireRoute(request, context, 'ledger.package.create')
  return null
}

export const action = ({ request, context }: ActionFunctionArgs) => savePackage(request, context)

export default function PackageCreateRoute() {
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.ledger.package.create')}</h1>
      </div>
      <PackageForm />
    </>
  )
}

export const ErrorBoundary = RouteError
