import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from '~/i18n/react'
import { RouteError } from '~/components/shell/route-error'
import { UserForm } from './__user-form'
import { saveUser, userFormData } from './__user.server'

export const handle = { title: 'pages.user.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => userFormData(request, context, 'create')

export const action = ({ request, context }: ActionFunctionArgs) => saveUser(request, context, 'create')

export default function UserCreateRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.user.create')}</h1>
        <Link to="/user" className="btn">
          {t('resources.user.back')}
        </Link>
      </div>
      <UserForm mode="create" user={null} roles={data.roles} extra={data.extra} nickSuffix={data.nickSuffix} allowPicture={data.allowPicture} foreign={false} />
    </>
  )
}

export const ErrorBoundary = RouteError
