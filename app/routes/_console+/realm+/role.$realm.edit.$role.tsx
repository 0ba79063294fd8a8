import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { formatTime } from '~/lib/format'
import { useClock } from '~/components/ui/clock'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { ROLE_META_KEYS } from '#shared/schemas/permission'
import { orErrorResponse, apiData } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'
import { RoleEditor } from './__role-editor'
import { grantableBy, saveRole } from './__role.server'

export const handle = { title: 'pages.role.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user } = await requireRoute(request, context, 'role.edit')
  const role = await orErrorResponse(apiData(api.mas.permission[':role'].$get({ param: { role: params.role ?? '' }, query: { realm: params.realm } })))
  // Seed 000 §6: every key except the meta keys is a permission.
  const granted = Object.entries(role)
    .filter(([k, v]) => !(ROLE_META_KEYS as readonly string[]).includes(k) && v === true)
    .map(([k]) => k)
  // A role of the editor's own (home realm) roles is shown but not editable: the API refuses it.
  const own = role.realm === user.home_realm && user.roles.includes(role.role)
  return {
    role: role.role,
    realm: role.realm,
    description: role.description,
    granted,
    grantable: grantableBy(user.permissions),
    own,
    updated_at: role.updated_at,
    updated_by: role.updated_by,
  }
}

export const action = ({ request, context, params }: ActionFunctionArgs) => saveRole(request, context, 'edit', params.realm)

export default function RoleEditRoute() {
  const role = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  const clock = useClock()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t('pages.role.edit')}: {role.role}
          </h1>
          <p className="hint">{t('resources.role.updated', { by: role.updated_by || '—', at: formatTime(role.updated_at, clock) })}</p>
        </div>
        <Link to="/realm/role" className="btn">
          {t('resources.role.back')}
        </Link>
      </div>
      <RoleEditor
        key={`${role.realm}/${role.role}`}
        mode="edit"
        role={role.role}
        description={role.description}
        granted={role.granted}
        grantable={role.grantable}
        own={role.own}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
