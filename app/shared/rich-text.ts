import katex from 'katex'
import { tokenize } from './html-tokens'
import { isWebUrl } from './schemas/common'

/**
 * Rich text (question statements, comments, option statements) is HTML written by the editor. Whatever arrives is
 * re-written through a real HTML tokenizer with a strict allowlist: nothing outside it survives, so no script,
 * event handler, `javascript:` URL, SVG or style can reach a page. Formulas are kept as LaTeX in `data-latex` and
 * rendered by KaTeX only when shown (never stored as rendered HTML).
 */
export interface RichTextPolicy {
  /** Image sources besides https: the realm's files URL (e.g. `http://demo.localhost:8787/files/demo/`). */
  filesBase?: string
}

/** Allowed elements and the attributes each keeps (values are checked again below). */
const ALLOWED: Record<string, readonly string[]> = {
  p: [],
  br: [],
  strong: [],
  em: [],
  u: [],
  s: [],
  ul: [],
  ol: [],
  li: [],
  h2: [],
  h3: [],
  blockquote: [],
  code: [],
  pre: [],
  sub: [],
  sup: [],
  a: ['href'],
  img: ['src', 'alt'],
  span: ['data-latex', 'data-display'],
}
/** Synonyms written by other editors or pasted text. */
const RENAMED: Record<string, string> = { b: 'strong', i: 'em', strike: 's', del: 's', h1: 'h2', h4: 'h3', h5: 'h3', h6: 'h3', div: 'p' }
/** Elements dropped together with everything inside them. */
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'svg',
  'math',
  'template',
  'noscript',
  'textarea',
  'select',
  'option',
  'title',
  'head',
  'xmp',
  'noembed',
  'noframes',
  'frameset',
  'frame',
  'applet',
  'canvas',
  'video',
  'audio',
  'form',
  'button',
  'input',
  'link',
  'meta',
  'base',
])
const VOID = new Set(['br', 'img'])
/** Opening one of these closes an open paragraph, as every HTML parser does: writing it nested would re-parse differently. */
const CLOSES_P = new Set(['p', 'ul', 'ol', 'h2', 'h3', 'blockquote', 'pre'])
const MAX_DEPTH = 40
export const MAX_LATEX = 2000

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;').replace(/'/g, '&#39;')
/** Browsers ignore control characters and whitespace inside a scheme (`java\tscript:`); so do we before checking. */
const compact = (url: string) => url.replace(/[\u0000-\u0020\u007f-\u009f]/g, '')

/** A link the reader may follow: an http(s) address that parses (the shared rule of every URL field), or mailto. */
export function safeLinkUrl(url: string): string | null {
  const u = compact(url)
  return isWebUrl(u) || /^mailto:\S+$/i.test(u) ? u : null
}

export function safeImageUrl(url: string, policy: RichTextPolicy = {}): string | null {
  const u = compact(url)
  if (isWebUrl(u, ['https'])) return u
  if (policy.filesBase && u.startsWith(policy.filesBase) && !u.slice(policy.filesBase.length).includes('..')) return u
  return null
}

interface Formula {
  latex: string
  display: boolean
}

interface Sink {
  open(tag: string, attrs: [string, string][]): void
  close(tag: string): void
  text(text: string): void
  formula(f: Formula): void
}

/**
 * Tokenizes `html` (./html-tokens.ts: htmlparser2 on the server, the browser's DOMParser in the browser) and reports
 * only what the allowlist keeps to `sink`. Every opening has its closing (implied ones included), so one frame per
 * element tells what its closing must do.
 */
function walk(html: string, policy: RichTextPolicy, sink: Sink): void {
  /** `closed`: an element already closed early (a block opened inside its paragraph); its own closing writes nothing. */
  type Frame = 'drop' | 'formula' | 'skip' | { tag: string; closed?: boolean }
  const stack: Frame[] = []
  const hidden = () => stack.some((f) => f === 'drop' || f === 'formula')
  const open = (f: Frame): f is { tag: string } => typeof f === 'object' && !f.closed
  const depth = () => stack.filter(open).length
  /** Closes the innermost open paragraph and everything opened inside it (the tokenizer may not: `<p><x><p>`). */
  const closeParagraph = () => {
    let at = stack.length - 1
    while (at >= 0 && !(open(stack[at]) && (stack[at] as { tag: string }).tag === 'p')) at--
    for (let i = stack.length - 1; at >= 0 && i >= at; i--) {
      const f = stack[i]
      if (open(f)) {
        sink.close(f.tag)
        f.closed = true
      }
    }
  }
  tokenize(html, {
    onopentag(raw, attribs) {
      if (hidden() || DROPPED.has(raw)) return void stack.push('drop')
      const tag = RENAMED[raw] ?? raw
      if (tag === 'span' && typeof attribs['data-latex'] === 'string') {
        const latex = attribs['data-latex'].slice(0, MAX_LATEX)
        if (latex.trim()) sink.formula({ latex, display: attribs['data-display'] === 'block' })
        return void stack.push('formula')
      }
      // Elements outside the allowlist are unwrapped: their text stays, the element does not.
      if (!(tag in ALLOWED) || tag === 'span' || depth() >= MAX_DEPTH) return void stack.push('skip')
      const attrs: [string, string][] = []
      if (tag === 'a') {
        const href = attribs.href ? safeLinkUrl(attribs.href) : null
        if (!href) return void stack.push('skip')
        attrs.push(['href', href], ['rel', 'noopener noreferrer nofollow'], ['target', '_blank'])
      }
      if (tag === 'img') {
        const src = attribs.src ? safeImageUrl(attribs.src, policy) : null
        if (!src) return void stack.push('skip')
        attrs.push(['src', src], ['alt', (attribs.alt ?? '').slice(0, 300)])
      }
      if (CLOSES_P.has(tag)) closeParagraph()
      sink.open(tag, attrs)
      stack.push(VOID.has(tag) ? 'skip' : { tag })
    },
    onclosetag() {
      const frame = stack.pop()
      if (frame && open(frame)) sink.close(frame.tag)
    },
    ontext(text) {
      if (!hidden()) sink.text(text)
    },
  })
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) if (open(frame)) sink.close(frame.tag)
}

function serializer(policy: RichTextPolicy, formula: (f: Formula) => string) {
  let out = ''
  return {
    sink: {
      open: (tag, attrs) => (out += `<${tag}${attrs.map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join('')}>`),
      close: (tag) => (out += `</${tag}>`),
      text: (text) => (out += escapeText(text)),
      formula: (f) => (out += formula(f)),
    } satisfies Sink,
    result: () => out,
    policy,
  }
}

/** The stored form: allowlisted HTML, formulas as empty `span.formula` elements carrying their LaTeX. */
export function sanitizeRichText(html: string, policy: RichTextPolicy = {}): string {
  const s = serializer(policy, (f) => `<span class="formula" data-latex="${escapeAttr(f.latex)}" data-display="${f.display ? 'block' : 'inline'}"></span>`)
  walk(html, policy, s.sink)
  return s.result()
}

const KATEX_OPTIONS = { throwOnError: false, trust: false, strict: 'ignore', maxSize: 20, maxExpand: 500, output: 'htmlAndMathml' } as const

/** A formula as KaTeX HTML (errors are shown in place, in KaTeX's error colour, never thrown). */
export function renderFormula(latex: string, display: boolean): string {
  return katex.renderToString(latex, { ...KATEX_OPTIONS, displayMode: display })
}

/** The HTML to show: sanitized again (defence in depth), with formulas rendered by KaTeX. */
export function renderRichText(html: string, policy: RichTextPolicy = {}): string {
  const s = serializer(policy, (f) => `<span class="formula formula-${f.display ? 'block' : 'inline'}">${renderFormula(f.latex, f.display)}</span>`)
  walk(html, policy, s.sink)
  return s.result()
}

/** The text a reader sees (formulas count as their LaTeX), whitespace collapsed: for minimum lengths and search. */
export function plainText(html: string): string {
  let out = ''
  walk(
    html,
    {},
    {
      open: (tag) => {
        if (tag === 'br' || tag === 'p' || tag === 'li') out += ' '
      },
      close: () => undefined,
      text: (text) => (out += text),
      formula: (f) => (out += ` ${f.latex} `),
    },
  )
  return out.replace(/\s+/g, ' ').trim()
}

export type FormulaProblem = 'formula_invalid' | 'formula_undefined'

/** Why KaTeX cannot typeset `latex` ("undefined control sequence" or any other parse error), or null. */
export function formulaProblem(latex: string): { problem: FormulaProblem; detail: string } | null {
  try {
    katex.renderToString(latex, { ...KATEX_OPTIONS, throwOnError: true })
    return null
  } catch (err) {
    const detail = err instanceof Error ? err.message.replace(/^KaTeX parse error: /, '') : String(err)
    return { problem: /Undefined control sequence/i.test(detail) ? 'formula_undefined' : 'formula_invalid', detail }
  }
}

/** The formulas of a rich text (LaTeX and mode), in order. */
export function formulasOf(html: string): Formula[] {
  const found: Formula[] = []
  walk(html, {}, { open: () => undefined, close: () => undefined, text: () => undefined, formula: (f) => found.push(f) })
  return found
}
