/**
 * The formula editor's palettes (issue 18): what each button inserts. In a template, `⟨…⟩` marks a placeholder: it
 * is inserted as its text and the first one is selected, so typing replaces it; with text selected in the editor,
 * that text fills the first placeholder and the next one is selected.
 */
export interface PaletteItem {
  /** The LaTeX inserted (with placeholders). */
  insert: string
  /** What the button shows, typeset (defaults to `insert` with its placeholders). */
  show?: string
}
export interface Palette {
  id: string
  items: PaletteItem[]
}

const symbols = (list: string) => list.split(' ').map((s) => ({ insert: s }))

export const PALETTES: Palette[] = [
  {
    id: 'greek',
    items: symbols(
      '\\alpha \\beta \\gamma \\delta \\epsilon \\varepsilon \\zeta \\eta \\theta \\vartheta \\iota \\kappa \\lambda \\mu \\nu \\xi \\pi \\rho \\sigma \\tau \\upsilon \\phi \\varphi \\chi \\psi \\omega \\Gamma \\Delta \\Theta \\Lambda \\Xi \\Pi \\Sigma \\Phi \\Psi \\Omega',
    ),
  },
  {
    id: 'operators',
    items: symbols('+ - \\pm \\mp \\times \\div \\cdot \\ast \\circ \\bullet \\oplus \\otimes \\cap \\cup \\wedge \\vee \\nabla \\partial \\infty'),
  },
  { id: 'relations', items: symbols('= \\neq < > \\leq \\geq \\ll \\gg \\approx \\equiv \\sim \\simeq \\cong \\propto \\parallel \\perp \\mid') },
  {
    id: 'arrows',
    items: symbols(
      '\\to \\leftarrow \\rightarrow \\leftrightarrow \\Rightarrow \\Leftarrow \\Leftrightarrow \\mapsto \\uparrow \\downarrow \\longrightarrow \\implies \\iff',
    ),
  },
  {
    id: 'fractions',
    items: [
      { insert: '\\frac{⟨a⟩}{⟨b⟩}' },
      { insert: '\\dfrac{⟨a⟩}{⟨b⟩}' },
      { insert: '\\sqrt{⟨x⟩}' },
      { insert: '\\sqrt[⟨n⟩]{⟨x⟩}' },
      { insert: '⟨x⟩^{⟨2⟩}' },
      { insert: '⟨x⟩_{⟨i⟩}' },
      { insert: '\\binom{⟨n⟩}{⟨k⟩}' },
    ],
  },
  {
    id: 'sums',
    items: [
      { insert: '\\sum_{⟨i=1⟩}^{⟨n⟩} ⟨a_i⟩' },
      { insert: '\\prod_{⟨i=1⟩}^{⟨n⟩} ⟨a_i⟩' },
      { insert: '\\int_{⟨a⟩}^{⟨b⟩} ⟨f(x)⟩\\,dx' },
      { insert: '\\iint_{⟨D⟩} ⟨f⟩\\,dA' },
      { insert: '\\oint_{⟨C⟩} ⟨f⟩\\,ds' },
      { insert: '\\lim_{⟨x \\to 0⟩} ⟨f(x)⟩' },
    ],
  },
  {
    id: 'matrices',
    items: [
      { insert: '\\begin{pmatrix} ⟨a⟩ & ⟨b⟩ \\\\ ⟨c⟩ & ⟨d⟩ \\end{pmatrix}' },
      { insert: '\\begin{bmatrix} ⟨a⟩ & ⟨b⟩ \\\\ ⟨c⟩ & ⟨d⟩ \\end{bmatrix}' },
      { insert: '\\begin{vmatrix} ⟨a⟩ & ⟨b⟩ \\\\ ⟨c⟩ & ⟨d⟩ \\end{vmatrix}' },
      { insert: '\\begin{cases} ⟨a⟩ & ⟨x > 0⟩ \\\\ ⟨b⟩ & ⟨x \\leq 0⟩ \\end{cases}' },
    ],
  },
  {
    id: 'functions',
    items: ['\\sin', '\\cos', '\\tan', '\\log', '\\ln', '\\exp', '\\max', '\\min'].map((f) => ({ insert: `${f}(⟨x⟩)` })),
  },
  {
    id: 'accents',
    items: ['\\hat', '\\bar', '\\vec', '\\dot', '\\ddot', '\\tilde', '\\overline', '\\underline'].map((a) => ({ insert: `${a}{⟨x⟩}` })),
  },
  {
    id: 'sets',
    items: symbols(
      '\\in \\notin \\subset \\subseteq \\supset \\emptyset \\forall \\exists \\neg \\land \\lor \\mathbb{N} \\mathbb{Z} \\mathbb{Q} \\mathbb{R} \\mathbb{C}',
    ),
  },
]

const PLACEHOLDER = /⟨([^⟩]*)⟩/g

/** What a button shows: its LaTeX with the placeholders' text. */
export const shownLatex = (item: PaletteItem) => item.show ?? item.insert.replace(PLACEHOLDER, '$1')

/**
 * Insert a palette item into `text` over the selection `[start, end)`: the answer is the new text and the new
 * selection (the first placeholder still to fill, or the caret after the insertion).
 */
export function insertTemplate(text: string, start: number, end: number, template: string): { text: string; start: number; end: number } {
  const selected = text.slice(start, end)
  const slots: { from: number; to: number }[] = []
  let out = ''
  let last = 0
  let filled = false
  for (const m of template.matchAll(PLACEHOLDER)) {
    out += template.slice(last, m.index)
    const content = !filled && selected ? selected : m[1]
    filled = true
    slots.push({ from: out.length, to: out.length + content.length })
    out += content
    last = m.index + m[0].length
  }
  out += template.slice(last)
  // A command followed by a letter would run into it (`\alpha` + `b` = `\alphab`): a space keeps them apart.
  const after = text.slice(end)
  if (/\\[A-Za-z]+$/.test(out) && /^[A-Za-z]/.test(after)) out += ' '
  const at = start
  const next = selected && slots.length ? slots[1] : slots[0]
  const result = text.slice(0, start) + out + after
  if (!next) return { text: result, start: at + out.length, end: at + out.length }
  return { text: result, start: at + next.from, end: at + next.to }
}

/** The name of the undefined control sequence in KaTeX's message (`\fraq`), or null. */
export function undefinedSequence(detail: string): string | null {
  return /Undefined control sequence: (\\[A-Za-z@]+|\\.)/.exec(detail)?.[1] ?? null
}
