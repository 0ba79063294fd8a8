import { act, fireEvent, render, screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import * as v from 'valibot'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { EssayField, FillLetters, FillWords, WordSequence } from '~/components/tms/answer-fields'
import { TaskTimer, WARNING_MINUTES, clockText, taskDeadline } from '~/components/tms/answer-timer'
import { catalogues } from '~/i18n/catalogues'
import { formAnswers } from '~/lib/answer-form'
import { essayIssues } from '#shared/essay-check'
import { Question } from '#shared/schemas/tms/question'
import { answerProblem, autoScore, isAnswered, studentQuestion } from '../../worker/lib/answer'
import { Answers } from '../../worker/lib/answer-schemas'

const pt = catalogues['pt-BR']
const tr = (key: string, values: Record<string, string | number>) => Object.entries(values).reduce((s, [k, x]) => s.replaceAll(`{{${k}}}`, String(x)), pt[key])

/**
 * The apply screen's answer widgets (issue 17), each driven as a student with a keyboard (or a tap) would: the
 * question is authored through the product's schema and turned into the student's view by the API's own function;
 * what the form then holds is read as the screen's action reads it, validated by the API's schema, checked by its
 * answer rules and scored by its automatic scoring.
 */
function author(input: Record<string, unknown>) {
  const q = v.parse(Question, { id: 'q1', statement: '<p>Questão de teste</p>', score: 2, ...input })
  return { q, view: studentQuestion(q, 'task/student') as { options: Record<string, never> } }
}

function inForm(children: ReactNode) {
  const { container } = render(<form>{children}</form>)
  return () => formAnswers(new FormData(container.querySelector('form')!))
}

/** What the API makes of the form's answer: valid in shape, fitting the question, and its automatic score. */
function judged(q: v.InferOutput<typeof Question>, answers: ReturnType<typeof formAnswers>) {
  const parsed = v.parse(Answers, answers)
  return { problem: answerProblem(q, parsed.q1), answered: isAnswered(q, parsed.q1), score: autoScore(q, parsed.q1) }
}

/** A drag's data, as the browser carries it between dragstart and drop. */
function dataTransfer() {
  const store = new Map<string, string>()
  return { setData: (k: string, x: string) => void store.set(k, x), getData: (k: string) => store.get(k) ?? '', effectAllowed: 'all', dropEffect: 'move' }
}

describe('fill letters', () => {
  it('takes the letters without spaces, caps them at the answer’s length, and scores a right answer', () => {
    const { q, view } = author({ type: 'fill_letters', options: { question: 'Capital do Brasil', answer: 'Brasilia' } })
    const read = inForm(<FillLetters id="q1" n={1} question={view.options.question} length={view.options.length} initial="" />)
    const input = screen.getByLabelText(tr('mobile.tms.apply.your_answer', { n: 1 }))
    expect(input.getAttribute('maxlength')).toBe('8')
    fireEvent.change(input, { target: { value: 'bras ilia' } })
    expect((input as HTMLInputElement).value).toBe('brasilia')
    expect(screen.getByText(tr('mobile.tms.apply.letters', { done: 8, count: 8 }))).toBeTruthy()
    expect(judged(q, read())).toEqual({ problem: null, answered: true, score: 2 })
  })
})

describe('fill words', () => {
  const sentence = 'O [[sol]] nasce no [[leste]].'

  it('select mode: a list at each gap, one word per gap in order', () => {
    const { q, view } = author({ type: 'fill_words', options: { sentence, incorrect: ['oeste'], mode: 'select' } })
    const read = inForm(<FillWords id="q1" n={1} items={view.options.items} words={view.options.words} mode="select" initial={[]} />)
    expect(read()).toEqual({})
    fireEvent.change(screen.getByLabelText(tr('mobile.tms.apply.gap', { g: 2, n: 1 })), { target: { value: 'leste' } })
    // One gap filled: the other is sent empty in its place (the API counts the gaps).
    expect(read()).toEqual({ q1: { words: ['', 'leste'] } })
    expect(judged(q, read())).toMatchObject({ problem: null, answered: true, score: 0 })
    fireEvent.change(screen.getByLabelText(tr('mobile.tms.apply.gap', { g: 1, n: 1 })), { target: { value: 'sol' } })
    expect(judged(q, read())).toEqual({ problem: null, answered: true, score: 2 })
  })

  it('drag mode by keyboard: pick a word (Enter), place it on a gap, Escape drops the pick, a filled gap gives its word back', () => {
    const { q, view } = author({ type: 'fill_words', options: { sentence, incorrect: ['oeste'], mode: 'drag_and_drop' } })
    const read = inForm(<FillWords id="q1" n={1} items={view.options.items} words={view.options.words} mode="drag_and_drop" initial={[]} />)
    const bank = screen.getByRole('group', { name: tr('mobile.tms.apply.bank', { n: 1 }) })
    const gap = (g: number, word: string) => screen.getByRole('button', { name: tr('mobile.tms.apply.gap_button', { g, word }) })
    const empty = pt['mobile.tms.apply.gap_empty']
    // A gap activated with nothing picked says what to do.
    fireEvent.click(gap(1, empty))
    expect(screen.getByRole('status').textContent).toBe(pt['mobile.tms.apply.pick_first'])
    // Pick "oeste", then Escape: nothing is picked any more.
    const oeste = within(bank).getByRole('button', { name: 'oeste' })
    fireEvent.click(oeste)
    expect(oeste.getAttribute('aria-pressed')).toBe('true')
    fireEvent.keyDown(oeste, { key: 'Escape' })
    expect(oeste.getAttribute('aria-pressed')).toBe('false')
    // Pick "oeste" and place it on gap 2 (wrong), then take it back; "leste" there and "sol" on gap 1.
    fireEvent.click(oeste)
    fireEvent.click(gap(2, empty))
    expect(screen.getByRole('status').textContent).toBe(tr('mobile.tms.apply.placed', { word: 'oeste', g: 2 }))
    expect(within(bank).queryByRole('button', { name: 'oeste' })).toBeNull()
    expect(judged(q, read())).toMatchObject({ problem: null, score: 0 })
    fireEvent.click(gap(2, 'oeste'))
    expect(within(bank).getByRole('button', { name: 'oeste' })).toBeTruthy()
    fireEvent.click(within(bank).getByRole('button', { name: 'leste' }))
    fireEvent.click(gap(2, empty))
    fireEvent.click(within(bank).getByRole('button', { name: 'sol' }))
    fireEvent.click(gap(1, empty))
    expect(read()).toEqual({ q1: { words: ['sol', 'leste'] } })
    expect(judged(q, read())).toEqual({ problem: null, answered: true, score: 2 })
  })

  it('drag mode by pointer: a word dropped on a gap fills it; a draft restores the placed words', () => {
    const { q, view } = author({ type: 'fill_words', options: { sentence, incorrect: ['oeste'], mode: 'drag_and_drop' } })
    const read = inForm(<FillWords id="q1" n={1} items={view.options.items} words={view.options.words} mode="drag_and_drop" initial={['sol', '']} />)
    expect(read()).toEqual({ q1: { words: ['sol', ''] } })
    const drag = dataTransfer()
    fireEvent.dragStart(screen.getByRole('button', { name: 'leste' }), { dataTransfer: drag })
    fireEvent.drop(screen.getByRole('button', { name: tr('mobile.tms.apply.gap_button', { g: 2, word: pt['mobile.tms.apply.gap_empty'] }) }), {
      dataTransfer: drag,
    })
    expect(judged(q, read())).toEqual({ problem: null, answered: true, score: 2 })
  })
})

describe('cloud and order sentences', () => {
  it('cloud: words join the sentence by Enter, Alt+↑ moves one back, Delete returns one, and the built sentence scores', () => {
    const { q, view } = author({ type: 'cloud', options: { phrase: 'eu gosto de ler', extra: ['nunca'] } })
    const read = inForm(<WordSequence id="q1" n={1} kind="cloud" bank={view.options.words} initial={[]} />)
    const bank = screen.getByRole('group', { name: tr('mobile.tms.apply.bank', { n: 1 }) })
    const pick = (w: string) => fireEvent.click(within(bank).getByRole('button', { name: w }))
    pick('eu')
    pick('de')
    pick('gosto')
    pick('nunca')
    expect(read()).toEqual({ q1: { words: ['eu', 'de', 'gosto', 'nunca'] } })
    // "gosto" is third: Alt+ArrowUp moves it to second, and focus follows it.
    const gosto = screen.getByRole('listitem', { name: tr('mobile.tms.apply.item', { word: 'gosto', pos: 3, count: 4 }) })
    fireEvent.keyDown(gosto, { key: 'ArrowUp', altKey: true })
    expect(screen.getByRole('status').textContent).toBe(tr('mobile.tms.apply.moved', { word: 'gosto', pos: 2 }))
    // The distractor goes back with Delete; "ler" joins.
    fireEvent.keyDown(screen.getByRole('listitem', { name: tr('mobile.tms.apply.item', { word: 'nunca', pos: 4, count: 4 }) }), { key: 'Delete' })
    expect(within(bank).getByRole('button', { name: 'nunca' })).toBeTruthy()
    pick('ler')
    expect(read()).toEqual({ q1: { words: ['eu', 'gosto', 'de', 'ler'] } })
    expect(judged(q, read())).toEqual({ problem: null, answered: true, score: 2 })
  })

  it('order sentences: the move buttons order them, a distractor left out, and a draft comes back in its order', () => {
    const sentences = ['Acordei cedo.', 'Tomei café.', 'Fui à escola.']
    const { q, view } = author({ type: 'order_sentences', options: { sentences, incorrect: ['Voei até a lua.'] } })
    const read = inForm(<WordSequence id="q1" n={1} kind="order" bank={view.options.sentences} initial={['Tomei café.', 'Acordei cedo.']} />)
    expect(read()).toEqual({ q1: { words: ['Tomei café.', 'Acordei cedo.'] } })
    fireEvent.click(screen.getByRole('button', { name: tr('mobile.tms.apply.move_up', { word: 'Acordei cedo.' }) }))
    const bank = screen.getByRole('group', { name: tr('mobile.tms.apply.bank', { n: 1 }) })
    fireEvent.click(within(bank).getByRole('button', { name: 'Fui à escola.' }))
    expect(read()).toEqual({ q1: { words: sentences } })
    expect(judged(q, read())).toEqual({ problem: null, answered: true, score: 2 })
    // Everything taken out: unanswered (no words sent).
    for (const s of sentences) fireEvent.click(screen.getByRole('button', { name: tr('mobile.tms.apply.remove', { word: s }) }))
    expect(read()).toEqual({})
    expect(screen.getByText(pt['mobile.tms.apply.sequence_empty'])).toBeTruthy()
  })
})

describe('essay', () => {
  it('counts words against the limits and lists the likely slips to correct', () => {
    const read = inForm(<EssayField id="q1" n={1} supportText="" min={3} max={10} unit="word" initial="" />)
    const box = screen.getByLabelText(tr('mobile.tms.apply.your_essay', { n: 1 }))
    fireEvent.change(box, { target: { value: 'o sol sol nasce' } })
    expect(screen.getByText(tr('mobile.tms.apply.essay_words', { count: 4, min: 3, max: 10 }))).toBeTruthy()
    expect(screen.getByText(tr('mobile.tms.apply.essay_issues', { count: 3 }))).toBeTruthy()
    fireEvent.change(box, { target: { value: 'O sol nasce cedo.' } })
    expect(screen.queryByText(/possíve(l|is) erros?/)).toBeNull()
    expect(read()).toEqual({ q1: { text: 'O sol nasce cedo.' } })
  })

  it('the device’s checks: repeated words, lowercase sentence starts, spaces around punctuation, the final stop', () => {
    expect(essayIssues('')).toEqual([])
    expect(essayIssues('Tudo certo aqui. Nada a corrigir!')).toEqual([])
    expect(essayIssues('Em 2020 2020 foi.')).toEqual([])
    expect(essayIssues('o que que houve ?  Nada').map((i) => i.kind)).toEqual([
      'repeated_word',
      'lowercase_start',
      'space_before_punctuation',
      'double_space',
      'no_final_punctuation',
    ])
  })
})

describe('the timer', () => {
  afterEach(() => vi.useRealTimers())

  it('warns at N minutes and at 1 minute, then times out once; the server’s clock counts', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    const onTimeout = vi.fn()
    // The device's clock is 30 s behind the server's; 6 minutes left by the server's clock.
    const deadline = Date.parse('2026-03-01T10:06:30Z')
    render(<TaskTimer deadline={deadline} offsetMs={30_000} show onTimeout={onTimeout} />)
    expect(screen.getByRole('timer').textContent).toBe('06:00')
    expect(screen.getByRole('alert').textContent).toBe('')
    act(() => void vi.advanceTimersByTime(61_000))
    expect(screen.getByRole('alert').textContent).toBe(tr('mobile.tms.apply.time_warning', { count: WARNING_MINUTES }))
    act(() => void vi.advanceTimersByTime(4 * 60_000))
    expect(screen.getByRole('alert').textContent).toBe(pt['mobile.tms.apply.time_last_minute'])
    expect(onTimeout).not.toHaveBeenCalled()
    act(() => void vi.advanceTimersByTime(60_000))
    expect(screen.getByRole('alert').textContent).toBe(pt['mobile.tms.apply.time_out'])
    expect(screen.getByRole('timer').textContent).toBe('00:00')
    act(() => void vi.advanceTimersByTime(10_000))
    expect(onTimeout).toHaveBeenCalledExactlyOnceWith(false)
  })

  it('a screen opened after the time is over says so at once, as already over', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    const onTimeout = vi.fn()
    render(<TaskTimer deadline={Date.now() - 1000} offsetMs={0} show onTimeout={onTimeout} />)
    expect(screen.getByRole('alert').textContent).toBe(pt['mobile.tms.apply.time_out'])
    act(() => void vi.advanceTimersByTime(5_000))
    expect(onTimeout).toHaveBeenCalledExactlyOnceWith(true)
  })

  it('without the timer shown, the warnings still come; the deadline is the earlier of expiry and the maximum time', () => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2026-03-01T10:00:00Z'))
    render(<TaskTimer deadline={Date.now() + 30_000} offsetMs={0} show={false} onTimeout={() => {}} />)
    expect(screen.queryByRole('timer')).toBeNull()
    expect(screen.getByRole('alert').textContent).toBe(pt['mobile.tms.apply.time_last_minute'])
    const openedAt = '2026-03-01T10:00:00Z'
    expect(taskDeadline({ openedAt, expireAt: '2026-03-02T10:00:00Z', maxMinutes: 45 })).toBe(Date.parse('2026-03-01T10:45:00Z'))
    expect(taskDeadline({ openedAt, expireAt: '2026-03-01T10:20:00Z', maxMinutes: 45 })).toBe(Date.parse('2026-03-01T10:20:00Z'))
    expect(taskDeadline({ openedAt, expireAt: '2026-03-01T10:20:00Z', maxMinutes: 0 })).toBe(Date.parse('2026-03-01T10:20:00Z'))
    expect(clockText(3_725_000)).toBe('1:02:05')
    expect(clockText(59_001)).toBe('01:00')
  })
})
