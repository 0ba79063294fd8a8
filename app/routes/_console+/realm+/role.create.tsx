import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { requireRoute } from '~/server/auth.server'
import { RoleEditor } from './__role-editor'
import { grantableBy, saveRole } from './__role.server'

export const handle = { title: 'pages.role.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireRoute(request, context, 'role.create')
  return { grantable: grantableBy(user.permissions) }
}

export const action = ({ request, context }: ActionFunctionArgs) => saveRole(request, context, 'create')

export default function RoleCreateRoute() {
  const { grantable } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.role.create')}</h1>
        <Link to="/realm/role" className="btn">
          {t('resources.role.back')}
        </Link>
      </div>
      <RoleEditor mode="create" granted={grantable.includes('dashboard_dashboard_access') ? ['dashboard_dashboard_access'] : []} grantable={grantable} />
    </>
  )
}

export const ErrorBoundary = RouteError
