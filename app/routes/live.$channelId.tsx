import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { LiveParticipantPage } from '~/components/live/participant-page'
import { liveParticipantAction, liveParticipantLoader } from '~/server/live-participant.server'

export const handle = { title: 'pages.public.live' }

/**
 * The participant view of a channel (public route `/live/{channelId}`, issue 13): members and signed-in users with
 * their ticket, guests with a name where the channel is public. The deep-link page's "continue in the browser" opens it.
 * Above the room, the quizzes and the poll running on the channel link to their player pages (issue 14).
 */
export const loader = (args: LoaderFunctionArgs) => liveParticipantLoader(args, args.params.channelId ?? '', { channelLive: true })

export const action = (args: ActionFunctionArgs) => liveParticipantAction(args)

export default function LiveParticipantRoute() {
  return <LiveParticipantPage d={useLoaderData<typeof loader>()} party="channel" />
}
