import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LiveRoom } from '~/components/live/live-room'
import { LiveSessions } from '~/components/live/live-sessions'
import { RouteError } from '~/components/shell/route-error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.channel.live' }

/** The console's live view of a channel (issue 13): the room with moderation, and the last live sessions' metrics. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'channel.live')
  const id = params.channelId ?? ''
  const channel = await orErrorResponse(apiData(api.channel[':id'].$get({ param: { id } })))
  const sessions = await apiData(api.channel.live[':id'].session.$get({ param: { id } }))
  return { channel: { id: channel.id, name: channel.name }, sessions: sessions.items.slice(0, 5) }
}

export default function ChannelLiveRoute() {
  const { channel, sessions } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.channel.live')}: {channel.name}
        </h1>
        <a className="btn" href={`/live/${encodeURIComponent(channel.id)}`} target="_blank" rel="noopener">
          {t('live.participant_view')}
        </a>{' '}
        <Link to={`/channel/edit/${encodeURIComponent(channel.id)}`} className="btn">
          {t('pages.channel.edit')}
        </Link>
      </div>
      <LiveRoom channelId={channel.id} view="console" />
      <LiveSessions sessions={sessions} title={t('live.sessions')} empty={t('live.no_sessions')} />
    </>
  )
}

export const ErrorBoundary = RouteError
