import { createRemixStub } from '@remix-run/testing'
import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { LiveParticipantPage } from '~/components/live/participant-page'
import { catalogues } from '~/i18n/catalogues'
import type { LiveParticipantData } from '~/server/live-participant.server'

/**
 * The channel's participant view (`/live/{channelId}`) links to the quizzes and the poll running on the channel
 * (issue 14), as the channel's deep link does: each to its player page, named; nothing when none runs.
 */

const pt = catalogues['pt-BR']

function renderPage(live: LiveParticipantData['live']) {
  const d: LiveParticipantData = {
    id: 'ch1',
    here: '/live/ch1',
    live,
    realm: 'Escola Demo',
    session: null,
    me: null,
    consoleSigninHref: '/login?redirectTo=%2Flive%2Fch1',
  }
  const Stub = createRemixStub([{ path: '/live/:channelId', Component: () => <LiveParticipantPage d={d} party="channel" /> }])
  render(<Stub initialEntries={['/live/ch1']} />)
}

describe('LiveParticipantPage: the channel’s running quiz and poll', () => {
  it('links to each running quiz and poll’s player page, above the ways in', async () => {
    renderPage([
      { kind: 'quiz', id: 'qz1', name: 'Feira de ciências', url: '/play/quiz/qz1' },
      { kind: 'poll', id: 'pl1', name: 'Melhor projeto', url: '/play/poll/pl1' },
    ])
    const nav = await screen.findByRole('navigation', { name: pt['deeplink.live'] })
    const links = within(nav).getAllByRole('link')
    expect(links.map((a) => [a.textContent?.trim(), a.getAttribute('href')])).toEqual([
      [pt['deeplink.play_quiz'].replace('{{name}}', 'Feira de ciências'), '/play/quiz/qz1'],
      [pt['deeplink.vote_poll'].replace('{{name}}', 'Melhor projeto'), '/play/poll/pl1'],
    ])
    // The visitor can still sign in or come in as a guest below them.
    expect(screen.getByRole('button', { name: pt['live.as_guest'] })).toBeTruthy()
  })

  it('shows no list when nothing runs on the channel', async () => {
    renderPage([])
    await screen.findByRole('button', { name: pt['live.as_guest'] })
    expect(screen.queryByRole('navigation', { name: pt['deeplink.live'] })).toBeNull()
  })
})
