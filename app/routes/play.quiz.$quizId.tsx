import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { PlayPage } from '~/components/quiz/play-page'
import { QuizPlayer } from '~/components/quiz/quiz-player'
import { liveParticipantAction, liveParticipantLoader } from '~/server/live-participant.server'

export const handle = { title: 'pages.public.quiz' }

/**
 * The player page of a running quiz (public route `/play/quiz/{quizId}`, issue 14), phone-sized: signed-in users play
 * with their ticket (the console session's, else the mobile-web session's, signed in here with the same mobile sign-in
 * as the channel's participant view); visitors play as guests with a nickname where the quiz's channel is public.
 * Whether the quiz exists and admits the visitor is the ticket's answer (shown by the player view).
 */
export const loader = (args: LoaderFunctionArgs) => liveParticipantLoader(args, args.params.quizId ?? '')

/** `?intent=signin`: the mobile-web sign-in (username and password); `?intent=signout` ends that session. */
export const action = (args: ActionFunctionArgs) => liveParticipantAction(args)

export default function QuizPlayRoute() {
  const d = useLoaderData<typeof loader>()
  const { t } = useTranslation()
  return (
    <PlayPage d={d} title={t('pages.public.quiz')}>
      {(guest, signinHref) => <QuizPlayer quizId={d.id} guest={guest} signinHref={signinHref} />}
    </PlayPage>
  )
}
