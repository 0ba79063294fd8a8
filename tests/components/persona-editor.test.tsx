import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '~/components/ui/toast'
import { catalogues } from '~/i18n/catalogues'
import { DialogForm } from '~/routes/_console+/personai+/__dialog-form'
import { dialogStart, prepareDialog } from '~/routes/_console+/personai+/__dialog'
import { preparePersona, personaStart } from '~/routes/_console+/personai+/__persona'
import { PersonaForm } from '~/routes/_console+/personai+/__persona-form'
import * as v from 'valibot'
import { DialogInput, PersonaUpdate, type PersonaDialog } from '#shared/schemas/persona'

/** The persona editor's logic in its components: voice values, dialog answers and the confirmed type change. */

const pt = catalogues['pt-BR']

function renderRoute(Component: React.ComponentType) {
  const Stub = createRemixStub([{ path: '/', Component, action: () => null }])
  render(
    <ToastProvider>
      <Stub initialEntries={['/']} />
    </ToastProvider>,
  )
}

const optionLabel = new RegExp(`^${pt['persona.dialog.option_n'].replace('{{n}}', '1')}`)
const answerType = () => {
  const el = screen.getByLabelText(pt['persona.dialog.answer_n'].replace('{{n}}', '1'))
  if (!(el instanceof HTMLSelectElement)) throw new Error('the answer type is a select')
  return el
}

describe('dialog form', () => {
  it('asks before an options answer changes type; keeping leaves type and options, confirming discards the options', async () => {
    renderRoute(() => <DialogForm dialog={null} others={[{ id: 'd1', label: 'Nuvens' }]} speechType="sync" lastResult={undefined} timeZone="UTC" />)
    fireEvent.change(answerType(), { target: { value: 'options' } })
    const add = await screen.findByRole('button', { name: pt['persona.dialog.add_option'] })
    act(() => fireEvent.click(add))
    fireEvent.change(await screen.findByLabelText(optionLabel), { target: { value: 'Saber mais' } })
    fireEvent.change(answerType(), { target: { value: 'link' } })
    const dialog = await screen.findByRole('dialog', { hidden: true, name: pt['persona.dialog.type_change.title'] })
    expect(dialog.textContent).toContain(pt['persona.dialog.type_change.message_one'].replace('{{count}}', '1'))
    fireEvent.click(screen.getByRole('button', { name: pt['persona.dialog.type_change.cancel'], hidden: true }))
    await waitFor(() => expect(answerType().value).toBe('options'))
    expect(screen.getByLabelText(optionLabel)).toBeTruthy()

    fireEvent.change(answerType(), { target: { value: 'link' } })
    fireEvent.click(await screen.findByRole('button', { name: pt['persona.dialog.type_change.confirm'], hidden: true }))
    await waitFor(() => expect(answerType().value).toBe('link'))
    expect(screen.queryByLabelText(optionLabel)).toBeNull()
    expect(screen.getByLabelText(new RegExp(pt['persona.dialog.fields.url']))).toBeTruthy()
  })

  it('changes a type without options at once, with no question', async () => {
    renderRoute(() => <DialogForm dialog={null} others={[]} speechType="sync" lastResult={undefined} timeZone="UTC" />)
    fireEvent.change(answerType(), { target: { value: 'video' } })
    await waitFor(() => expect(answerType().value).toBe('video'))
    expect(screen.queryByRole('dialog', { hidden: true, name: pt['persona.dialog.type_change.title'] })).toBeNull()
  })

  it('offers the browser animation for text answers only when the persona speaks through animations', () => {
    renderRoute(() => <DialogForm dialog={null} others={[]} speechType="animation" lastResult={undefined} timeZone="UTC" />)
    expect(screen.getByLabelText(pt['persona.dialog.fields.animation'])).toBeTruthy()
  })

  it('turns the form into the API body and back: animations from their plain fields, blank questions dropped, options kept to text and dialog', () => {
    const body = prepareDialog({
      type: 'conversation',
      name: 'X',
      questions: ['Como chove', ''],
      answers: [
        { type: 'text', text: 'Assim.', animation_provider: 'browser' },
        {
          type: 'options',
          options: [
            { text: 'Mais', dialog_id: 'd1' },
            { text: 'Nada', dialog_id: '' },
          ],
        },
        { type: 'video', url: 'https://v.example/a.mp4', animation_provider: 'did', animation_url: '' },
      ],
    })
    const parsed = v.parse(DialogInput, body)
    expect(parsed.questions).toEqual(['Como chove'])
    expect(parsed.answers[0].animation).toEqual({ provider: 'browser' })
    expect(parsed.answers[1].options).toEqual([
      { text: 'Mais', dialog_id: 'd1', deleted: false },
      { text: 'Nada', dialog_id: null, deleted: false },
    ])
    expect(parsed.answers[2].animation).toBeNull()
    const stored = {
      ...parsed,
      id: 'd2',
      persona_id: 'p',
      stage: 'draft',
      position: 0,
      problems: [],
      created_at: '',
      updated_at: '',
      updated_by: '',
    } as PersonaDialog
    expect(v.parse(DialogInput, prepareDialog(dialogStart(stored)))).toEqual(parsed)
  })
})

describe('persona form', () => {
  it('reads the voice in the page language, keeps only the chosen provider’s settings, and no provider is no voice', () => {
    const body = preparePersona({
      name: 'Ana',
      tags: 'ciência, biologia, ',
      is_public: 'on',
      voice: {
        provider: 'google',
        code: 'pt-BR-Neural2-A',
        language: 'pt-BR',
        voice_index: '2',
        settings: { pitch: '1,4', speaking_rate: '1.05', speed: '3', volume_gain: '' },
      },
    })
    const parsed = v.parse(PersonaUpdate, body)
    expect(parsed.tags).toEqual(['ciência', 'biologia'])
    expect(parsed.is_public).toBe(true)
    expect(parsed.voice).toEqual({
      provider: 'google',
      code: 'pt-BR-Neural2-A',
      language: 'pt-BR',
      voice_index: 2,
      custom: false,
      settings: { pitch: 1.4, speaking_rate: 1.05, volume_gain: 0 },
    })
    expect(v.parse(PersonaUpdate, preparePersona({ name: 'Ana', voice: { provider: '' } })).voice).toBeNull()
    // Out of the seed's range or off its step: refused with the range's message.
    const wrong = v.safeParse(
      PersonaUpdate,
      preparePersona({ name: 'Ana', voice: { provider: 'minimax', code: 'x', language: 'pt-BR', settings: { pitch: '0,3' } } }),
    )
    expect(wrong.success).toBe(false)
    expect(wrong.issues?.[0].message).toBe('validation.step')
  })

  it('shows the speech type the flags give as they change', async () => {
    renderRoute(() => <PersonaForm persona={null} lastResult={undefined} timeZone="UTC" voiceCloneReady={false} />)
    const note = () => screen.getByTestId('speech-type').textContent ?? ''
    expect(note()).toContain(pt['persona.speech_type.animation'])
    fireEvent.click(screen.getByLabelText(pt['resources.persona.fields.synchronized_speech']))
    await waitFor(() => expect(note()).toContain(pt['persona.speech_type.sync']))
    fireEvent.click(screen.getByLabelText(pt['resources.persona.fields.humanized']))
    await waitFor(() => expect(note()).toContain(pt['persona.speech_type.chromakey']))
    expect(screen.getByText(pt['persona.editor.voice.clone_needs_provider'])).toBeTruthy()
  })

  it('starts an edit with the stored voice shown in the page language', () => {
    const start = personaStart(
      {
        id: 'p',
        realm: 'r',
        name: 'Ana',
        bio: '',
        tags: ['a', 'b'],
        image_file_id: '',
        image_url: '',
        image_check: {},
        language: 'pt-BR',
        is_public: false,
        fluid_conversation: false,
        synchronized_speech: false,
        humanized: false,
        speech_type: 'animation',
        voice: { provider: 'minimax', code: 'x', language: 'pt-BR', voice_index: 0, custom: false, settings: { pitch: 1.4, speed: 1, volume: 1 } },
        messages: { greeting: '', unknown_answer: '', call_helper: '' },
        terms_accepted_at: null,
        terms_accepted_by: null,
        created_at: '',
        created_by: '',
        updated_at: '',
        updated_by: '',
      },
      'pt-BR',
    )
    expect(start.tags).toBe('a, b')
    expect((start.voice as { settings: Record<string, unknown> }).settings.pitch).toBe('1,4')
  })
})
