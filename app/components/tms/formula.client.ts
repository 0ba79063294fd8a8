import { Node, mergeAttributes } from '@tiptap/core'
import { renderFormula } from '#shared/rich-text'

/**
 * A formula in the editor: an atom carrying its LaTeX and its mode (inline or block), stored as
 * `<span data-latex="…" data-display="inline|block">` and shown typeset by KaTeX while editing.
 */
export const Formula = Node.create({
  name: 'formula',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: true,
  addAttributes() {
    return {
      latex: { default: '', parseHTML: (el) => el.getAttribute('data-latex') ?? '', renderHTML: (a) => ({ 'data-latex': a.latex }) },
      display: {
        default: 'inline',
        parseHTML: (el) => (el.getAttribute('data-display') === 'block' ? 'block' : 'inline'),
        renderHTML: (a) => ({ 'data-display': a.display }),
      },
    }
  },
  parseHTML() {
    return [{ tag: 'span[data-latex]' }]
  },
  renderHTML({ HTMLAttributes }) {
    return ['span', mergeAttributes({ class: 'formula' }, HTMLAttributes)]
  },
  addNodeView() {
    return ({ node }) => {
      const dom = document.createElement('span')
      const block = node.attrs.display === 'block'
      dom.className = `formula formula-${block ? 'block' : 'inline'}`
      dom.contentEditable = 'false'
      dom.setAttribute('role', 'img')
      dom.setAttribute('aria-label', String(node.attrs.latex))
      // KaTeX output (trust off) of the formula's own LaTeX: no user markup reaches the page.
      dom.innerHTML = renderFormula(String(node.attrs.latex), block)
      return { dom }
    }
  },
})
