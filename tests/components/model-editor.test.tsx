import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '~/components/ui/toast'
import { ModelEditor } from '~/components/tms/model-editor'
import { catalogues } from '~/i18n/catalogues'

const pt = catalogues['pt-BR']
const EMPTY = {
  title: '',
  kind: 'activity',
  description: '',
  tags: [],
  categories: [],
  style: { background_color: '' },
  min_execution_time: 0,
  max_execution_time: 0,
  token: false,
  audio_question: false,
  essay_transcription: false,
  verify_answers: false,
  disable_answer_review: false,
  auto_draft: false,
  questions: [],
}

function renderEditor(initial: Record<string, unknown> = EMPTY) {
  const Stub = createRemixStub([
    {
      path: '/tms/model/create',
      Component: () => (
        <ToastProvider>
          <ModelEditor initial={initial as typeof EMPTY} categories={[]} refs={{ genres: [], skills: [] }} canUseBank={false} />
        </ToastProvider>
      ),
      action: () => ({ errors: [] }),
    },
  ])
  render(<Stub initialEntries={['/tms/model/create']} />)
}

const cards = () => screen.queryAllByRole('listitem').filter((li) => li.classList.contains('question-card'))
const typeOf = (card: HTMLElement) => (within(card).getByLabelText(pt['tms.editor.type']) as unknown as HTMLSelectElement).value

function add(type: string) {
  fireEvent.change(screen.getByLabelText(pt['tms.editor.new_type']), { target: { value: type } })
  fireEvent.click(screen.getByRole('button', { name: pt['tms.editor.add_question'] }))
}

describe('the task-model editor', () => {
  it('adds, reorders by buttons and keyboard, duplicates and deletes questions', async () => {
    renderEditor()
    expect(screen.getByText(pt['tms.editor.no_questions'])).toBeTruthy()
    add('single')
    add('cloud')
    add('essay')
    expect(cards().map(typeOf)).toEqual(['single', 'cloud', 'essay'])
    expect(screen.getByRole('heading', { name: 'Questões (3)' })).toBeTruthy()

    fireEvent.click(screen.getByRole('button', { name: 'Descer a questão 1' }))
    expect(cards().map(typeOf)).toEqual(['cloud', 'single', 'essay'])
    expect(screen.getByText('Questão movida para a posição 2.')).toBeTruthy()
    // The first question cannot go up, the last cannot go down.
    expect((screen.getByRole('button', { name: 'Subir a questão 1' }) as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByRole('button', { name: 'Descer a questão 3' }) as HTMLButtonElement).disabled).toBe(true)

    // Keyboard: arrow keys on the drag handle move the question.
    fireEvent.keyDown(screen.getByRole('button', { name: 'Arrastar a questão 3' }), { key: 'ArrowUp' })
    expect(cards().map(typeOf)).toEqual(['cloud', 'essay', 'single'])

    fireEvent.click(screen.getByRole('button', { name: 'Duplicar a questão 2' }))
    expect(cards().map(typeOf)).toEqual(['cloud', 'essay', 'essay', 'single'])

    fireEvent.click(screen.getByRole('button', { name: 'Remover a questão 1' }))
    expect(cards().map(typeOf)).toEqual(['essay', 'essay', 'single'])
  })

  it('moves a question by drag and drop', () => {
    renderEditor()
    add('text')
    add('game')
    const [first, second] = cards()
    const data = new Map<string, string>()
    const dataTransfer = {
      setData: (k: string, v: string) => data.set(k, v),
      getData: (k: string) => data.get(k) ?? '',
      get types() {
        return [...data.keys()]
      },
    }
    fireEvent.dragStart(first, { dataTransfer })
    fireEvent.dragOver(second, { dataTransfer })
    fireEvent.drop(second, { dataTransfer })
    expect(cards().map(typeOf)).toEqual(['game', 'text'])
  })

  it('asks before changing the type of a question whose options were edited, and discards them on confirmation', () => {
    renderEditor()
    add('fill_letters')
    const card = cards()[0]
    fireEvent.change(within(card).getByLabelText(pt['tms.editor.letters_question']), { target: { value: 'Capital da França' } })
    fireEvent.change(within(card).getByLabelText(pt['tms.editor.type']), { target: { value: 'text' } })
    const dialog = screen.getByRole('dialog', { name: pt['tms.editor.change_type_title'] })
    expect(dialog.textContent).toContain('Mudar para “Dissertativa” descarta')
    fireEvent.click(within(dialog).getByRole('button', { name: pt['settings.cancel'] }))
    expect(typeOf(cards()[0])).toBe('fill_letters')
    expect((within(cards()[0]).getByLabelText(pt['tms.editor.letters_question']) as HTMLInputElement).value).toBe('Capital da França')

    fireEvent.change(within(cards()[0]).getByLabelText(pt['tms.editor.type']), { target: { value: 'text' } })
    fireEvent.click(
      within(screen.getByRole('dialog', { name: pt['tms.editor.change_type_title'] })).getByRole('button', { name: pt['tms.editor.change_type_yes'] }),
    )
    expect(typeOf(cards()[0])).toBe('text')
    expect(within(cards()[0]).queryByLabelText(pt['tms.editor.letters_question'])).toBeNull()
    expect(within(cards()[0]).getByLabelText(pt['tms.editor.min_text_count'])).toBeTruthy()
  })

  it('changes the type of an untouched question without asking', () => {
    renderEditor()
    add('single')
    fireEvent.change(within(cards()[0]).getByLabelText(pt['tms.editor.type']), { target: { value: 'multi' } })
    expect(screen.queryByRole('dialog', { name: pt['tms.editor.change_type_title'] })).toBeNull()
    expect(typeOf(cards()[0])).toBe('multi')
  })

  it('shows the schema rule messages next to the field as it is edited', () => {
    renderEditor()
    add('fill_letters')
    const answer = within(cards()[0]).getByLabelText(pt['tms.editor.letters_answer'])
    fireEvent.change(answer, { target: { value: 'duas palavras' } })
    expect(within(cards()[0]).getByText(pt['validation.question.fill_letters_spaces'])).toBeTruthy()
    fireEvent.change(answer, { target: { value: 'Paris' } })
    expect(within(cards()[0]).queryByText(pt['validation.question.fill_letters_spaces'])).toBeNull()
  })

  it('refuses to save with errors and marks every field', async () => {
    renderEditor()
    add('game')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: pt['tms.editor.save'] }))
    })
    expect(screen.getByText(pt['tms.editor.fix_errors'])).toBeTruthy()
    expect(within(cards()[0]).getAllByText(/./, { selector: 'p.error' }).length).toBeGreaterThan(0)
  })

  it('previews a question as the student will see it', () => {
    renderEditor({
      ...EMPTY,
      questions: [
        {
          id: 'q1',
          type: 'order_sentences',
          statement: '<p>Ordene as etapas.</p>',
          score: 1,
          required: true,
          options: { sentences: ['Acordar', 'Escovar os dentes'], incorrect: [] },
        },
      ],
    })
    expect(screen.queryByLabelText(pt['tms.editor.live_preview'])).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Pré-visualizar a questão 1' }))
    const preview = screen.getByLabelText(pt['tms.editor.live_preview'])
    expect(preview.textContent).toContain('Ordene as etapas.')
    expect(preview.textContent).toContain('Escovar os dentes')
    // No resolution in the student's view.
    expect(within(preview).queryByLabelText(pt['tms.view.resolution'])).toBeNull()
  })
})
