import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PlayPage } from '~/components/quiz/play-page'
import { PollPlayer } from '~/components/quiz/poll-player'
import { liveParticipantAction, liveParticipantLoader } from '~/server/live-participant.server'

export const handle = { title: 'pages.public.poll' }

/**
 * The voter page of a running poll (public route `/play/poll/{pollId}`, issue 14), phone-sized, on the participant
 * views' loader and action as the quiz's player page: signed-in users vote with their ticket; visitors vote as guests
 * with a nickname where the poll's channel is public. Whether the poll exists and admits the visitor is the ticket's
 * answer (shown by the voter view).
 */
export const loader = (args: LoaderFunctionArgs) => liveParticipantLoader(args, args.params.pollId ?? '')

/** `?intent=signin`: the mobile-web sign-in (username and password); `?intent=signout` ends that session. */
export const action = (args: ActionFunctionArgs) => liveParticipantAction(args)

export default function PollPlayRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <PlayPage d={d} title={t('pages.public.poll')}>
      {(guest, signinHref) => <PollPlayer pollId={d.id} guest={guest} signinHref={signinHref} />}
    </PlayPage>
  )
}
