import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import * as v from 'valibot'
import { Id } from '#shared/schemas/tms/common'
import { apiData, orNull } from '~/server/api.server'
import { apiFor, getToken } from '~/server/auth.server'
import { clearMobileCookie, mobileSessionAction, mobileUser } from '~/server/mobile-session.server'
import { requirePublicRoute } from '~/server/public-route.server'
import { getRealmContext } from '~/server/realm.server'

/**
 * The participant views' loader and action (`/live/{channelId}`, `/live/room/{roomId}`, issue 13; the quiz and poll player pages
 * `/play/quiz/{quizId}`, `/play/poll/{pollId}`, issue 14): signed-in users
 * join with their ticket — the console session's, else the mobile-web session's (a student signs in there with the
 * mobile sign-in, `server/mobile-session.server.ts`) —; visitors join a public channel as guests with a name. Whether
 * the channel or room exists and admits the visitor is the ticket's answer (shown as the room's state), so the page
 * says nothing about it before that (its heading names it once the party has admitted the visitor). With
 * `channelLive` (the channel's view) it also answers the quizzes and the poll running on the channel, as the channel's
 * deep link does, to link to their player pages.
 */
export async function liveParticipantLoader({ request, context }: LoaderFunctionArgs, id: string, options: { channelLive?: boolean } = {}) {
  await requirePublicRoute(request, context)
  const realm = await getRealmContext(request, context)
  const here = new URL(request.url).pathname
  const headers = new Headers({ 'Cache-Control': 'no-store' })
  let session: 'console' | 'mobile' | null = null
  let me: { name: string; nick: string } | null = null
  if (realm.code && (await getToken(request))) session = 'console'
  else if (realm.code) {
    const mobile = await mobileUser(request, context, realm)
    if (mobile.state === 'user') {
      session = 'mobile'
      me = mobile.me
    } else if (mobile.state === 'expired') headers.append('Set-Cookie', await clearMobileCookie(request))
  }
  // A channel's view links to the quizzes and the poll running on it (the deep link's public answer; issue 14).
  const channel = options.channelLive && realm.code ? v.safeParse(Id, id) : null
  const target = channel?.success
    ? await orNull(apiData((await apiFor(request, context, realm)).deeplink.channel[':id'].$get({ param: { id: channel.output } })))
    : null
  return data(
    {
      id,
      here,
      live: target?.live ?? [],
      realm: realm.config?.name ?? null,
      session,
      me,
      consoleSigninHref: `/login?redirectTo=${encodeURIComponent(here)}`,
    },
    { headers },
  )
}

export type LiveParticipantData = Awaited<ReturnType<typeof liveParticipantLoader>>['data']

/** `?intent=signin`: the mobile-web sign-in (username and password); `?intent=signout` ends that session. */
export const liveParticipantAction = (args: ActionFunctionArgs) => mobileSessionAction(args)
