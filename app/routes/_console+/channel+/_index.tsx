import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CrudList } from '~/components/ui/crud-list'
import { RouteError } from '~/components/shell/route-error'
import channelList from '~/lists/channel'
import type { Channel } from '#shared/schemas/channel'
import { deleteRow } from '~/server/entity-form.server'
import { loadList } from '~/server/list.server'
import { withFilterOptions } from '~/lib/list-format'
import { categoryOptions } from './__channel.server'

export const handle = { title: 'pages.channel.list' }

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { page, query, user, api } = await loadList(request, context, channelList)
  const p = user.permissions
  return {
    page,
    query,
    categories: await categoryOptions(api, user),
    canCreate: p.sns_channel_create,
    canEdit: p.sns_channel_edit,
    canDelete: p.sns_channel_delete,
  }
}

export const action = ({ request, context }: ActionFunctionArgs) =>
  deleteRow(request, context, 'channel.list', (api, id) => api.channel[':id'].$delete({ param: { id } }))

export default function ChannelListRoute() {
  const data = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <CrudList<Channel>
      spec={withFilterOptions(channelList, { category_id: data.categories })}
      page={data.page as typeof data.page & { items: Channel[] }}
      query={data.query}
      title={t('pages.channel.list')}
      create={data.canCreate ? { to: '/channel/create', label: t('pages.channel.create') } : null}
      editTo={data.canEdit ? (row) => `/channel/edit/${row.id}` : null}
      canDelete={data.canDelete}
      label={(row) => row.name}
    />
  )
}

export const ErrorBoundary = RouteError
