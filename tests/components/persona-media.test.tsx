import { createRemixStub } from '@remix-run/testing'
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PersonaAnimations } from '~/components/persona-media/animation-generator'
import { ToastProvider } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import type { PersonaMediaData } from '~/routes/personai.media.$personaId'

/** The persona editor's paid media: a paid call only after the confirmation that states the price, with that price. */

const pt = catalogues['pt-BR']
const fill = (s: string, values: Record<string, string | number>) => Object.entries(values).reduce((out, [k, v]) => out.replace(`{{${k}}}`, String(v)), s)

function renderAnimations(data: PersonaMediaData) {
  const calls: { intent: string | null; body: Record<string, unknown> }[] = []
  const Stub = createRemixStub([
    { path: '/', Component: () => <PersonaAnimations personaId="p1" /> },
    {
      path: '/personai/media/:personaId',
      loader: () => data,
      action: async ({ request }) => {
        calls.push({ intent: new URL(request.url).searchParams.get('intent'), body: (await request.json()) as Record<string, unknown> })
        return { ok: true, errors: [] }
      },
    },
  ])
  render(
    <ToastProvider>
      <Stub initialEntries={['/']} />
    </ToastProvider>,
  )
  return calls
}

const ready: PersonaMediaData = {
  state: 'ok',
  items: [],
  provider: 'did',
  voiceCloneReady: true,
  prices: { animation: 60, voice_clone: 100 },
  canEdit: true,
}

describe('generate animation (paid)', () => {
  it('asks for confirmation with the price; cancel calls nothing, confirm calls once with that price and a key', async () => {
    const calls = renderAnimations(ready)
    const idle = pt['persona.editor.animation.idle']
    const button = await screen.findByRole('button', { name: fill(pt['persona.media.generate_kind'], { kind: idle }) })
    expect(screen.getByText(fill(pt['persona.media.price'], { price: 60 }))).toBeTruthy()

    fireEvent.click(button)
    const dialog = await screen.findByRole('dialog', { hidden: true, name: pt['persona.media.confirm.title'] })
    expect(dialog.textContent).toContain(fill(pt['persona.media.confirm.animation'], { kind: idle, price: 60 }))
    fireEvent.click(screen.getByRole('button', { name: pt['persona.media.confirm.cancel'], hidden: true }))
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true, name: pt['persona.media.confirm.title'] })).toBeNull())
    expect(calls).toEqual([])

    fireEvent.click(button)
    fireEvent.click(await screen.findByRole('button', { name: pt['persona.media.confirm.ok'], hidden: true }))
    await waitFor(() => expect(calls).toHaveLength(1))
    expect(calls[0]).toMatchObject({ intent: 'animation', body: { kind: 'idle', confirm_points: 60, idempotency_key: expect.stringMatching(/^pm-/) } })
  })

  it('shows each kind’s state and, without a provider, says one must be configured and offers no paid button', async () => {
    renderAnimations({
      ...ready,
      provider: null,
      items: [{ kind: 'talk', provider: 'did', status: 'done', url: 'https://cdn/x.mp4', error: null, operation_id: 'aio_1', updated_at: '', updated_by: '' }],
    })
    expect(await screen.findByText(pt['persona.media.needs_provider_animation'])).toBeTruthy()
    expect(screen.getByRole('link', { name: pt['persona.media.watch'] }).getAttribute('href')).toBe('https://cdn/x.mp4')
    expect(screen.queryByRole('button', { name: new RegExp(pt['persona.media.generate']) })).toBeNull()
  })
})
