import { createRemixStub } from '@remix-run/testing'
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { RichText } from '~/components/tms/rich-text'
import { renderToString } from 'react-dom/server'
import { RichTextEditor as LazyRichTextEditor } from '~/components/tms/rich-text-editor'
import { RichTextEditor } from '~/components/tms/rich-text-editor.client'
import { catalogues } from '~/i18n/catalogues'

const pt = catalogues['pt-BR']

/** The editor with its current HTML shown beside it, as a form would hold it. */
function Harness({ initial }: { initial: string }) {
  const [html, setHtml] = useState(initial)
  return (
    <>
      <RichTextEditor label="Enunciado" value={initial} onChange={setHtml} />
      <output data-testid="html">{html}</output>
      <RichText html={html} className="shown" />
    </>
  )
}

function renderEditor(initial = '<p>Quanto vale x?</p>') {
  const Stub = createRemixStub([{ path: '/', Component: () => <Harness initial={initial} /> }])
  render(<Stub initialEntries={['/']} />)
}

const toolbar = () => screen.getByRole('toolbar', { name: 'Formatação de Enunciado' })
const html = () => screen.getByTestId('html').textContent ?? ''

describe('the rich-text editor (@tiptap/react)', () => {
  it('shows the stored text in an editable textbox with its toolbar', async () => {
    renderEditor()
    const box = await screen.findByRole('textbox', { name: 'Enunciado' })
    expect(box.textContent).toBe('Quanto vale x?')
    expect(
      within(toolbar())
        .getAllByRole('button')
        .map((b) => b.getAttribute('title')),
    ).toEqual([
      pt['richtext.bold'],
      pt['richtext.italic'],
      pt['richtext.bullet_list'],
      pt['richtext.ordered_list'],
      pt['richtext.link'],
      pt['richtext.image'],
      pt['richtext.formula.insert'],
    ])
  })

  it('inserts a formula typeset by KaTeX, and refuses an undefined control sequence with its message', async () => {
    renderEditor()
    await screen.findByRole('textbox', { name: 'Enunciado' })
    fireEvent.click(within(toolbar()).getByRole('button', { name: pt['richtext.formula.insert'] }))
    const dialog = screen.getByRole('dialog', { name: pt['richtext.formula.title'] })
    const latex = within(dialog).getByLabelText(pt['richtext.formula.latex'])
    const insert = within(dialog).getByRole('button', { name: pt['richtext.formula.save'] }) as HTMLButtonElement

    fireEvent.change(latex, { target: { value: '\\fraq{1}{2}' } })
    expect(within(dialog).getByText(pt['validation.question.formula_undefined'])).toBeTruthy()
    expect(insert.disabled).toBe(true)
    fireEvent.change(latex, { target: { value: '\\frac{1}{2' } })
    expect(within(dialog).getByText(pt['validation.question.formula_invalid'])).toBeTruthy()

    fireEvent.change(latex, { target: { value: '\\frac{1}{2}' } })
    expect(dialog.querySelector('.formula-preview .katex')).not.toBeNull()
    fireEvent.click(within(dialog).getByLabelText(pt['richtext.formula.block']))
    await act(async () => {
      fireEvent.click(insert)
    })
    await waitFor(() => expect(html()).toContain('data-latex="\\frac{1}{2}"'))
    expect(html()).toContain('data-display="block"')
    // Shown to a reader: typeset by KaTeX from the stored LaTeX.
    expect(document.querySelector('.shown .katex')).not.toBeNull()
  })

  it('refuses a javascript: link address in the link dialog', async () => {
    renderEditor()
    await screen.findByRole('textbox', { name: 'Enunciado' })
    fireEvent.click(within(toolbar()).getByRole('button', { name: pt['richtext.link'] }))
    const dialog = screen.getByRole('dialog', { name: pt['richtext.link'] })
    fireEvent.change(within(dialog).getByLabelText(pt['richtext.link_address']), { target: { value: 'javascript:alert(1)' } })
    expect((within(dialog).getByRole('button', { name: pt['richtext.link_save'] }) as HTMLButtonElement).disabled).toBe(true)
  })

  it('never shows stored markup as script, whatever the storage holds', async () => {
    renderEditor('<p>Oi<img src="x" onerror="window.__pwned=1"><script>window.__pwned=2</script></p>')
    await screen.findByRole('textbox', { name: 'Enunciado' })
    const shown = document.querySelector('.shown')!
    expect(shown.innerHTML).not.toMatch(/onerror|<script/)
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined()
  })
})

describe('the field outside the editor module', () => {
  it('renders a placeholder with the label on the server, and the editor once it has loaded in the browser', async () => {
    const field = <LazyRichTextEditor label="Enunciado" value="<p>Quanto vale x?</p>" onChange={() => undefined} error="Obrigatório" />
    const server = renderToString(field)
    expect(server).toContain('Enunciado')
    expect(server).toContain('aria-busy="true"')
    expect(server).toContain('Obrigatório')
    expect(server).not.toContain('ProseMirror')
    const Stub = createRemixStub([{ path: '/', Component: () => field }])
    render(<Stub initialEntries={['/']} />)
    expect(await screen.findByRole('toolbar', { name: 'Formatação de Enunciado' })).toBeTruthy()
    await waitFor(() => expect(document.querySelector('.ProseMirror')?.textContent).toBe('Quanto vale x?'))
  })
})
