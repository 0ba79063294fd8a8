import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { FormulaEditor } from '~/components/formula-editor/formula-editor'
import { PALETTES, insertTemplate, undefinedSequence } from '~/components/formula-editor/palettes'
import { catalogues } from '~/i18n/catalogues'
import { formulaProblem } from '#shared/rich-text'

const pt = catalogues['pt-BR']

function Harness({ initial = '' }: { initial?: string }) {
  const [latex, setLatex] = useState(initial)
  return (
    <>
      <FormulaEditor label="LaTeX" value={latex} onChange={setLatex} />
      <output data-testid="latex">{latex}</output>
    </>
  )
}

const textarea = () => screen.getByLabelText('LaTeX') as HTMLTextAreaElement

describe('the formula editor (KaTeX)', () => {
  it('reports an undefined control sequence by name, and an invalid formula', () => {
    render(<Harness />)
    fireEvent.change(textarea(), { target: { value: '\\fraq{1}{2} + \\alpha' } })
    const alert = screen.getByRole('alert')
    expect(within(alert).getByText(pt['validation.question.formula_undefined'])).toBeTruthy()
    expect(alert.querySelector('.formula-sequence')?.textContent).toBe(pt['formula.sequence'].replace('{{sequence}}', '\\fraq'))
    expect(textarea().getAttribute('aria-invalid')).toBe('true')

    fireEvent.change(textarea(), { target: { value: '\\frac{1}{2' } })
    expect(within(screen.getByRole('alert')).getByText(pt['validation.question.formula_invalid'])).toBeTruthy()

    fireEvent.change(textarea(), { target: { value: '\\frac{1}{2}' } })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(document.querySelector('.formula-preview .katex')).not.toBeNull()
  })

  it('inserts a palette item at the caret, the selection filling its first placeholder and the next one selected', () => {
    render(<Harness initial="x = a + b" />)
    const area = textarea()
    area.focus()
    area.setSelectionRange(8, 9) // "b"
    fireEvent.click(screen.getByRole('tab', { name: pt['formula.palette.fractions'] }))
    const group = screen.getByRole('group', { name: pt['formula.palette.fractions'] })
    act(() => {
      fireEvent.click(within(group).getByRole('button', { name: pt['formula.insert_symbol'].replace('{{latex}}', '\\frac{a}{b}') }))
    })
    expect(screen.getByTestId('latex').textContent).toBe('x = a + \\frac{b}{b}')
    // The denominator's placeholder is selected: typing replaces it.
    expect(area.value.slice(area.selectionStart, area.selectionEnd)).toBe('b')
    expect(area.selectionStart).toBe('x = a + \\frac{b}{'.length)

    area.setSelectionRange(0, 0)
    fireEvent.click(screen.getByRole('tab', { name: pt['formula.palette.greek'] }))
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: pt['formula.insert_symbol'].replace('{{latex}}', '\\alpha') }))
    })
    // A command before a letter is kept apart from it.
    expect(screen.getByTestId('latex').textContent).toBe('\\alpha x = a + \\frac{b}{b}')
    expect(area.selectionStart).toBe('\\alpha '.length)
  })

  it('moves between palettes with the arrow keys (a tab list)', () => {
    render(<Harness />)
    const first = screen.getByRole('tab', { name: pt['formula.palette.greek'] })
    first.focus()
    fireEvent.keyDown(first, { key: 'ArrowRight' })
    expect(screen.getByRole('tab', { name: pt['formula.palette.operators'] }).getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    expect(screen.getByRole('tab', { name: pt['formula.palette.sets'] }).getAttribute('aria-selected')).toBe('true')
  })
})

describe('the palettes', () => {
  it('cover the ten groups of the issue, every item typeset by KaTeX without error, in three languages', () => {
    expect(PALETTES.map((p) => p.id)).toEqual(['greek', 'operators', 'relations', 'arrows', 'fractions', 'sums', 'matrices', 'functions', 'accents', 'sets'])
    for (const p of PALETTES) {
      for (const item of p.items) expect(formulaProblem(item.insert.replace(/⟨([^⟩]*)⟩/g, '$1')), item.insert).toBeNull()
      for (const lang of ['pt-BR', 'en-US', 'es-ES'] as const) expect(catalogues[lang][`formula.palette.${p.id}`]).toBeTruthy()
    }
  })

  it('insertTemplate: caret insertion, placeholders and the selection', () => {
    expect(insertTemplate('', 0, 0, '\\sqrt{⟨x⟩}')).toEqual({ text: '\\sqrt{x}', start: 6, end: 7 })
    expect(insertTemplate('ab', 1, 1, '+')).toEqual({ text: 'a+b', start: 2, end: 2 })
    expect(insertTemplate('2y', 0, 2, '\\sqrt{⟨x⟩}')).toEqual({ text: '\\sqrt{2y}', start: 9, end: 9 })
    expect(undefinedSequence(formulaProblem('\\fraq{1}{2}')!.detail)).toBe('\\fraq')
  })
})
