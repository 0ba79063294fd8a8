import { createRemixStub } from '@remix-run/testing'
import { useFetcher } from '@remix-run/react'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { ControlHeader, type ControlAnswer } from '~/components/quiz/control-header'
import { catalogues } from '~/i18n/catalogues'
import type { QuizStatus } from '#shared/schemas/quiz'

/**
 * The shared head of the quiz's and the poll's control screens (issue 14): the lifecycle buttons each status allows,
 * posted to the screen itself, the refusal the action answers shown in words, and the link to a new clone.
 */

const pt = catalogues['pt-BR']

function renderHeader(kind: 'quiz' | 'poll', status: QuizStatus, answer: ControlAnswer, canClone = true, canEdit = true) {
  const posted = vi.fn()
  function Screen() {
    const op = useFetcher<ControlAnswer>()
    return (
      <ControlHeader kind={kind} run={{ id: 'q1', name: 'Feira de ciências', status }} op={op} can={{ canClone, canEdit }}>
        <p>resumo</p>
      </ControlHeader>
    )
  }
  const Stub = createRemixStub([
    {
      path: `/${kind}/control/:id`,
      Component: Screen,
      action: async ({ request }) => {
        posted(Object.fromEntries(await request.formData()))
        return answer
      },
    },
    { path: `/${kind}/control/q2`, Component: () => <p>o clone</p> },
    { path: `/${kind}`, Component: () => <p>a lista</p> },
  ])
  render(<Stub initialEntries={[`/${kind}/control/q1`]} />)
  return posted
}

const actions = () =>
  within(screen.getByRole('group', { name: pt['resources.quiz.actions'] }))
    .queryAllByRole('button')
    .map((b) => b.textContent)

describe('ControlHeader', () => {
  it('offers each status its own lifecycle actions, with the kind’s labels', async () => {
    renderHeader('poll', 'draft', {})
    await screen.findByRole('heading', { name: `${pt['pages.poll.control']}: Feira de ciências` })
    expect(screen.getByText(pt['resources.quiz.status.draft'])).toBeTruthy()
    expect(screen.getByText('resumo')).toBeTruthy()
    expect(actions()).toEqual([pt['resources.quiz.start'], pt['resources.poll.cancel'], pt['resources.quiz.clone']])
    expect(screen.getByRole('link', { name: pt['tms.form.back'] }).getAttribute('href')).toBe('/poll')
    expect(screen.getByRole('link', { name: pt['resources.quiz.edit_settings'] }).getAttribute('href')).toBe('/poll/edit/q1')
  })

  it('offers the settings’ edit only to a draft and to whoever may edit', async () => {
    renderHeader('quiz', 'draft', {}, true, false)
    await screen.findByRole('heading', { name: `${pt['pages.quiz.control']}: Feira de ciências` })
    expect(screen.queryByRole('link', { name: pt['resources.quiz.edit_settings'] })).toBeNull()
  })

  it('offers an active quiz finish and cancel, and no clone without the permission', async () => {
    renderHeader('quiz', 'active', {}, false)
    await screen.findByRole('heading', { name: `${pt['pages.quiz.control']}: Feira de ciências` })
    expect(actions()).toEqual([pt['resources.quiz.finish'], pt['resources.quiz.cancel']])
    expect(screen.queryByRole('link', { name: pt['resources.quiz.edit_settings'] })).toBeNull()
  })

  it('has no lifecycle action for a finished quiz the user cannot clone', async () => {
    renderHeader('quiz', 'finished', {}, false)
    await screen.findByRole('heading', { name: `${pt['pages.quiz.control']}: Feira de ciências` })
    expect(actions()).toEqual([])
  })

  it('posts the action to the screen and shows its refusal in words', async () => {
    const posted = renderHeader('quiz', 'draft', {
      errors: [{ field: '', cause: 'invalid_state', value: null, message: 'quiz.error.publish_no_questions' }],
    })
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: pt['resources.quiz.start'] })))
    expect((await screen.findByRole('alert')).textContent).toBe(pt['quiz.error.publish_no_questions'])
    expect(posted).toHaveBeenCalledExactlyOnceWith({ op: 'start' })
  })

  it('links to the clone the action made', async () => {
    const posted = renderHeader('poll', 'finished', { clone: { id: 'q2', name: 'Feira de ciências (cópia)' } })
    await act(async () => fireEvent.click(await screen.findByRole('button', { name: pt['resources.quiz.clone'] })))
    const link = await screen.findByRole('link', { name: pt['resources.quiz.cloned'].replace('{{name}}', 'Feira de ciências (cópia)') })
    expect(link.getAttribute('href')).toBe('/poll/control/q2')
    expect(posted).toHaveBeenCalledExactlyOnceWith({ op: 'clone' })
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
