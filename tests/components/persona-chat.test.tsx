import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { PersonaChatMessage, PersonaFace } from '#shared/schemas/persona-chat'
import { PersonaChat } from '~/components/persona-chat/persona-chat'
import { catalogues } from '~/i18n/catalogues'
import type { PersonaChatServerMessage } from '../../party/persona-chat-protocol'

/**
 * The public chat's island (components/persona-chat) against a stand-in socket: what the party says is shown (the
 * greeting, the answer as it streams, links, options, sources), what the visitor does is sent, the ticket's refusals
 * become the page's states, and every microphone and speech-recognition error of seed 002 §8 shows its message.
 */

const { FakeSocket, sockets } = vi.hoisted(() => {
  const sockets: InstanceType<typeof FakeSocket>[] = []
  class FakeSocket {
    readonly sent: unknown[] = []
    private listeners: Record<string, ((e: { data?: string }) => void)[]> = {}
    constructor(readonly options: Record<string, unknown>) {
      sockets.push(this)
    }
    addEventListener(type: string, f: (e: { data?: string }) => void) {
      ;(this.listeners[type] ??= []).push(f)
    }
    send(data: string) {
      this.sent.push(JSON.parse(data))
    }
    close() {}
    /** Delivers a server message as the party would. */
    deliver(data: string) {
      for (const f of this.listeners.message ?? []) f({ data })
    }
  }
  return { FakeSocket, sockets }
})
vi.mock('partysocket', () => ({ default: FakeSocket }))
type FakeSocket = InstanceType<typeof FakeSocket>

const emit = (socket: FakeSocket, message: PersonaChatServerMessage) => act(() => socket.deliver(JSON.stringify(message)))

const pt = catalogues['pt-BR']
const face: PersonaFace = {
  id: 'p1',
  name: 'Professora Ana',
  bio: 'Ensina biologia.',
  image_url: '',
  language: 'pt-BR',
  is_public: true,
  speech_type: 'sync',
  voice: null,
  helper: true,
}
const msg = (m: Partial<PersonaChatMessage> & Pick<PersonaChatMessage, 'seq' | 'role' | 'kind' | 'text'>): PersonaChatMessage => ({
  dialog_id: null,
  answers: [],
  sources: [],
  engine: null,
  at: 0,
  ...m,
})
const state = { started: false, answering: false, disabled: false, language: 'pt-BR' }

function ticketAnswer(status = 200, cause?: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      status === 200
        ? Response.json({ ticket: 't', host: 'party.test', room: 's1', session_id: 's1' })
        : Response.json({ errors: [{ field: '', cause, value: null, message: '' }] }, { status }),
    ),
  )
}

async function openChat(): Promise<FakeSocket> {
  render(<PersonaChat personaId="p1" initial={face} signinSlot={<p>formulário de entrada</p>} />)
  await waitFor(() => expect(sockets.length).toBe(1))
  const socket = sockets[0]
  emit(socket, {
    type: 'welcome',
    session_id: 's1',
    persona: face,
    messages: [msg({ seq: 1, role: 'persona', kind: 'greeting', text: 'Olá! Eu sou a Ana.' })],
    partial: null,
    seq: 1,
    state,
    now: 0,
  })
  return socket
}

beforeEach(() => {
  sockets.length = 0
  window.sessionStorage.clear()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the public chat island', () => {
  it('shows the greeting, the answer as it streams, then its links, options and sources; sends questions and choices', async () => {
    ticketAnswer()
    const socket = await openChat()
    expect(screen.getByText('Olá! Eu sou a Ana.')).toBeTruthy()
    expect(String(vi.mocked(fetch).mock.calls[0][0])).toBe('/party/ticket?party=personachat&room=p1&language=pt-BR')
    expect(window.sessionStorage.getItem('persona-chat:p1')).toBe('s1')

    fireEvent.change(screen.getByLabelText(pt['persona.chat.question']), { target: { value: 'Quando abre a biblioteca?' } })
    fireEvent.click(screen.getByRole('button', { name: pt['persona.chat.send'] }))
    expect(socket.sent).toEqual([expect.objectContaining({ type: 'ask', text: 'Quando abre a biblioteca?' })])

    emit(socket, { type: 'state', state: { ...state, started: true, answering: true, disabled: true } })
    emit(socket, { type: 'delta', seq: 3, text: 'A biblioteca ' })
    emit(socket, { type: 'delta', seq: 3, text: 'abre às 8h.' })
    expect(screen.getByText('A biblioteca abre às 8h.')).toBeTruthy()
    expect((screen.getByRole('button', { name: pt['persona.chat.send'] }) as HTMLButtonElement).disabled).toBe(true)

    emit(socket, {
      type: 'message',
      message: msg({
        seq: 3,
        role: 'persona',
        kind: 'dialog',
        text: 'A biblioteca abre às 8h.',
        dialog_id: 'd1',
        answers: [
          { type: 'text', text: 'A biblioteca abre às 8h.', url: '', options: [], animation: null },
          { type: 'pdf', text: '', url: 'https://example.org/regras.pdf', options: [], animation: null },
          { type: 'options', text: '', url: '', options: [{ text: 'Ver o horário', dialog_id: 'd2', deleted: false }], animation: null },
        ],
      }),
    })
    emit(socket, { type: 'state', state: { ...state, started: true } })
    expect(screen.getAllByText('A biblioteca abre às 8h.')).toHaveLength(1)
    expect(screen.getByRole('link', { name: pt['persona.chat.answer_type.pdf'] }).getAttribute('href')).toBe('https://example.org/regras.pdf')
    fireEvent.click(screen.getByRole('button', { name: 'Ver o horário' }))
    expect(socket.sent[1]).toEqual(expect.objectContaining({ type: 'option', text: 'Ver o horário', dialog_id: 'd2' }))

    emit(socket, {
      type: 'message',
      message: msg({
        seq: 5,
        role: 'persona',
        kind: 'knowledge',
        text: 'De “biologia.pdf (p. 2)”: A respiração celular acontece nas mitocôndrias. [1]',
        engine: 'local',
        sources: [{ id: 'c1', source: 'k1', title: 'biologia.pdf (p. 2)', quote: 'A respiração celular acontece nas mitocôndrias.', score: 1.5 }],
      }),
    })
    expect(screen.getByText('Fonte (1)')).toBeTruthy()
    expect(screen.getByText('biologia.pdf (p. 2)')).toBeTruthy()
    expect(screen.getByText(pt['persona.chat.local_engine'])).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: pt['persona.chat.call_helper'] }))
    expect(socket.sent[2]).toEqual(expect.objectContaining({ type: 'helper' }))
    emit(socket, { type: 'error', cause: 'busy', message: '' })
    expect(screen.getByRole('alert').textContent).toBe(pt['persona.chat.cause.busy'])
  })

  it('turns the ticket’s refusals into the page’s states: sign-in for a private persona, the terms, an error with a retry', async () => {
    ticketAnswer(401, 'login_required')
    const { unmount } = render(<PersonaChat personaId="p1" initial={face} signinSlot={<p>formulário de entrada</p>} />)
    await screen.findByText('formulário de entrada')
    expect(screen.getByText(pt['persona.chat.login_required'])).toBeTruthy()
    unmount()

    ticketAnswer(409, 'terms_required')
    const second = render(<PersonaChat personaId="p1" initial={face} signinSlot={null} />)
    await screen.findByText(pt['persona.chat.cause.terms_required'])
    second.unmount()

    ticketAnswer(503, 'unavailable')
    render(<PersonaChat personaId="p1" initial={face} signinSlot={null} />)
    await screen.findByText(pt['persona.chat.error'])
    ticketAnswer()
    fireEvent.click(screen.getByRole('button', { name: pt['persona.chat.retry'] }))
    await waitFor(() => expect(sockets.length).toBe(1))
  })

  it.each([
    ['NotFoundError', 'speech.error.microphone_not_found'],
    ['NotReadableError', 'speech.error.microphone_not_readable'],
    ['NotAllowedError', 'speech.error.microphone_permission_denied'],
    ['WeirdError', 'speech.error.microphone_unexpected'],
  ])('a microphone that fails with %s shows its message', async (name, key) => {
    ticketAnswer()
    vi.stubGlobal('webkitSpeechRecognition', class {})
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => Promise.reject(new DOMException('no', name))) },
    })
    await openChat()
    fireEvent.click(screen.getByRole('button', { name: pt['persona.chat.speak'] }))
    expect((await screen.findByRole('alert')).textContent).toBe(pt[key])
  })

  it.each([
    ['no-speech', 'speech.error.no_speech'],
    ['aborted', 'speech.error.aborted'],
    ['audio-capture', 'speech.error.audio_capture'],
    ['network', 'speech.error.network'],
    ['not-allowed', 'speech.error.not_allowed'],
    ['bad-grammar', 'speech.error.unexpected'],
  ])('speech recognition failing with %s shows its message; a recognised question is asked', async (code, key) => {
    ticketAnswer()
    const recognitions: { onerror: ((e: { error: string }) => void) | null; onresult: unknown; onend: (() => void) | null }[] = []
    vi.stubGlobal(
      'webkitSpeechRecognition',
      class {
        onerror: ((e: { error: string }) => void) | null = null
        onresult: ((e: { results: { transcript: string }[][] }) => void) | null = null
        onend: (() => void) | null = null
        constructor() {
          recognitions.push(this)
        }
        start() {}
        abort() {}
      },
    )
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => ({ getTracks: () => [{ stop() {} }] })) },
    })
    const socket = await openChat()
    fireEvent.click(screen.getByRole('button', { name: pt['persona.chat.speak'] }))
    await waitFor(() => expect(recognitions).toHaveLength(1))
    const r = recognitions[0] as unknown as { onresult: (e: { results: { transcript: string }[][] }) => void; onerror: (e: { error: string }) => void }
    act(() => r.onresult({ results: [[{ transcript: ' Onde fica a secretaria? ' }]] }))
    expect(socket.sent).toEqual([expect.objectContaining({ type: 'ask', text: 'Onde fica a secretaria?' })])
    act(() => r.onerror({ error: code }))
    expect((await screen.findByRole('alert')).textContent).toBe(pt[key])
  })
})
