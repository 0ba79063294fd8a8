import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { LiveParticipantPage } from '~/components/live/participant-page'
import { liveParticipantAction, liveParticipantLoader } from '~/server/live-participant.server'

export const handle = { title: 'pages.room.live' }

/**
 * The participant view of a console room or breakout (public route `/live/room/{roomId}`, issue 13 "rooms go live"):
 * its members join with their ticket (the console session's, or a student's mobile-web sign-in here); no guests.
 */
export const loader = (args: LoaderFunctionArgs) => liveParticipantLoader(args, args.params.roomId ?? '')

export const action = (args: ActionFunctionArgs) => liveParticipantAction(args)

export default function LiveRoomParticipantRoute() {
  return <LiveParticipantPage d={useLoaderData<typeof loader>()} party="room" />
}
