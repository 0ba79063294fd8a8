import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { RealmEditor } from './__realm-editor'
import { createData, realmAction } from './__realm.server'

export const handle = { title: 'pages.realm.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => createData(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => realmAction(request, context, 'create')

export default function RealmCreateRoute() {
  const props = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.realm.create')}</h1>
        <Link to="/realm" className="btn">
          {t('resources.realm.back')}
        </Link>
      </div>
      <RealmEditor {...props} />
    </>
  )
}

export const ErrorBoundary = RouteError
