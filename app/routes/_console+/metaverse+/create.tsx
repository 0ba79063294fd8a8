import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { MetaverseForm } from './__metaverse-form'
import { metaverseFormData, saveMetaverseRoom } from './__metaverse.server'

export const handle = { title: 'pages.metaverse.create' }

export const loader = ({ request, context }: LoaderFunctionArgs) => metaverseFormData(request, context)

export const action = ({ request, context }: ActionFunctionArgs) => saveMetaverseRoom(request, context)

export default function MetaverseCreateRoute() {
  const { room } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>{t('pages.metaverse.create')}</h1>
        <Link to="/metaverse" className="btn">
          {t('resources.metaverse_room.back')}
        </Link>
      </div>
      <MetaverseForm key={room?.updated_at ?? 'new'} room={room} />
    </>
  )
}

export const ErrorBoundary = RouteError
