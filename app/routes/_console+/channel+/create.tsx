import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { RouteError } from '~/components/shell/route-error'
import { ChannelCreate } from '#shared/schemas/channel'
import { apiData } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { prepareChannel } from './__channel'
import { ChannelForm } from './__channel-form'
import { categoryOptions } from './__channel.server'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.channel.create' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'channel.create')
  return { categories: await categoryOptions(api, user), me: user.nick, timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  apiAction(request, context, {
    route: 'channel.create',
    schema: ChannelCreate,
    prepare: prepareChannel('create'),
    call: (api, json) => apiData(api.channel.$post({ json })),
    redirect: (saved) => `/channel/edit/${saved.id}`,
    flash: (saved) => ({ kind: 'success', message: 'resources.channel.saved', values: { name: saved.name } }),
  })

export default function ChannelCreateRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={t('pages.channel.create')} back="/channel" />
      <ChannelForm mode="create" channel={null} categories={d.categories} me={d.me} timeZone={d.timeZone} lastResult={lastResult} />
    </>
  )
}

export const ErrorBoundary = RouteError
