import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useActionData, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { SharedLink } from '~/components/channel/shared-link'
import { RouteError } from '~/components/shell/route-error'
import { ChannelMemberInput, ChannelUpdate } from '#shared/schemas/channel'
import { apiData, orErrorResponse } from '~/server/api.server'
import { DEFAULT_TIME_ZONE, apiAction } from '~/server/api-action.server'
import { requireRoute } from '~/server/auth.server'
import { ChangeMember, MEMBER_INTENTS, MemberRef, OwnerRef, prepareChannel, type MemberIntent } from './__channel'
import { ChannelForm } from './__channel-form'
import { ChannelMembers } from './__channel-members'
import { categoryOptions } from './__channel.server'
import { PageHeader } from '~/components/ui/page-header'

export const handle = { title: 'pages.channel.edit' }

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api, user, realm } = await requireRoute(request, context, 'channel.edit')
  const id = params.channelId ?? ''
  const q = (new URL(request.url).searchParams.get('q') ?? '').slice(0, 120)
  const channel = await orErrorResponse(apiData(api.channel[':id'].$get({ param: { id } })))
  const members = await apiData(api.channel[':id'].member.$get({ param: { id }, query: { like: q || undefined } }))
  return {
    channel,
    members: members.items,
    q,
    categories: await categoryOptions(api, user),
    me: user.nick,
    timeZone: realm.config?.time_zone ?? DEFAULT_TIME_ZONE,
  }
}

const WRITE = { all: ['sns_channel_edit'] }

/** Saves the channel, or (intent in the URL) adds, changes or removes a member, or hands ownership over. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = params.channelId ?? ''
  const intent = new URL(request.url).searchParams.get('intent') as MemberIntent | null
  const done = { onSuccess: (_: unknown, submission: { reply: () => unknown }) => submission.reply() }
  if (intent && MEMBER_INTENTS.includes(intent)) {
    if (intent === 'add_member')
      return apiAction(request, context, {
        access: WRITE,
        schema: ChannelMemberInput,
        call: (api, json) => apiData(api.channel[':id'].member.$post({ param: { id }, json })),
        ...done,
      })
    if (intent === 'change_member')
      return apiAction(request, context, {
        access: WRITE,
        schema: ChangeMember,
        call: (api, { nick, permission }) => apiData(api.channel[':id'].member[':nick'].$put({ param: { id, nick }, json: { permission } })),
        ...done,
      })
    if (intent === 'remove_member')
      return apiAction(request, context, {
        access: WRITE,
        schema: MemberRef,
        call: (api, { nick }) => apiData(api.channel[':id'].member[':nick'].$delete({ param: { id, nick } })),
        ...done,
      })
    return apiAction(request, context, {
      access: WRITE,
      schema: OwnerRef,
      call: (api, json) => apiData(api.channel[':id'].owner.$post({ param: { id }, json })),
      ...done,
    })
  }
  return apiAction(request, context, {
    route: 'channel.edit',
    schema: ChannelUpdate,
    prepare: prepareChannel('edit'),
    call: (api, json) => apiData(api.channel[':id'].$put({ param: { id }, json })),
    redirect: `/channel/edit/${id}`,
    flash: (saved) => ({ kind: 'success', message: 'resources.channel.saved', values: { name: saved.name } }),
  })
}

export default function ChannelEditRoute() {
  const d = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const { t } = useTranslation()
  return (
    <>
      <PageHeader title={`${t('pages.channel.edit')}: ${d.channel.name}`} back="/channel">
        <Link to={`/channel/live/${encodeURIComponent(d.channel.id)}`} className="btn">
          {t('pages.channel.live')}
        </Link>
      </PageHeader>
      <SharedLink channelId={d.channel.id} />
      <ChannelForm
        key={`${d.channel.id}:${d.channel.updated_at}`}
        mode="edit"
        channel={d.channel}
        categories={d.categories}
        me={d.me}
        timeZone={d.timeZone}
        lastResult={lastResult}
      />
      <ChannelMembers members={d.members} q={d.q} owner={d.channel.owner} timeZone={d.timeZone} />
    </>
  )
}

export const ErrorBoundary = RouteError
