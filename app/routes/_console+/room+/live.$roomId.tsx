import type { LoaderFunctionArgs } from '@remix-run/cloudflare'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { LiveRoom } from '~/components/live/live-room'
import { LiveSessions } from '~/components/live/live-sessions'
import { RouteError } from '~/components/shell/route-error'
import { apiData, orErrorResponse } from '~/server/api.server'
import { requireRoute } from '~/server/auth.server'

export const handle = { title: 'pages.room.live' }

/**
 * The console's live view of a room or breakout (issue 13 "rooms go live"): the room party with moderation (room
 * editors join as admins, readers as participants), and its recorded sessions' metrics.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { api } = await requireRoute(request, context, 'room.live')
  const id = params.roomId ?? ''
  const room = await orErrorResponse(apiData(api.room.room[':id'].$get({ param: { id } })))
  const sessions = await apiData(api.room.live[':id'].session.$get({ param: { id } }))
  // Issue 20 live breakouts: a top-level room's open breakout rooms (a breakout has none of its own).
  const breakouts = room.parent_id === null ? (await apiData(api.room.room[':id'].breakout.$get({ param: { id } }))).items : []
  return {
    room: { id: room.id, name: room.name, recording: room.recording, parent_id: room.parent_id },
    sessions: sessions.items.slice(0, 5),
    breakouts: breakouts.filter((b) => b.closed_at === null).map((b) => ({ id: b.id, name: b.name })),
  }
}

export default function RoomLiveRoute() {
  const { room, sessions, breakouts } = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <>
      <div className="page-header">
        <h1>
          {t('pages.room.live')}: {room.name}
        </h1>
        <a className="btn" href={`/live/room/${encodeURIComponent(room.id)}`} target="_blank" rel="noopener">
          {t('live.room_participant_view')}
        </a>{' '}
        <Link to={`/room/edit/${encodeURIComponent(room.id)}`} className="btn">
          {t('pages.room.edit')}
        </Link>
      </div>
      <LiveRoom channelId={room.id} party="room" view="console" breakoutRooms={room.parent_id === null ? breakouts : undefined} />
      <LiveSessions
        sessions={sessions}
        title={t('live.room_sessions')}
        empty={t('live.no_room_sessions')}
        note={room.recording ? undefined : t('live.room_not_recorded')}
      />
    </>
  )
}

export const ErrorBoundary = RouteError
