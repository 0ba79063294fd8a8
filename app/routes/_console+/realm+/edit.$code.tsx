import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { RealmEditor } from './__realm-editor'
import { editData, realmAction } from './__realm.server'

export const handle = { title: 'pages.realm.edit' }

export const loader = ({ request, context, params }: LoaderFunctionArgs) => editData(request, context, params.code ?? '')

export const action = ({ request, context, params }: ActionFunctionArgs) => realmAction(request, context, 'edit', params.code)

export default function RealmEditRoute() {
  const { code, name, updated_at, ...props } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <div>
          <h1>
            {t('pages.realm.edit')}: {name}
          </h1>
          <p className="hint">{code}</p>
        </div>
        <Link to="/realm" className="btn">
          {t('resources.realm.back')}
        </Link>
      </div>
      {/* A saved realm starts a fresh form from what was stored (secrets empty again). */}
      <RealmEditor key={`${code}:${updated_at}`} {...props} />
    </>
  )
}

export const ErrorBoundary = RouteError
