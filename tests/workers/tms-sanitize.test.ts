import { Parser } from 'htmlparser2'
import { describe, expect, it } from 'vitest'
import type { Model } from '#shared/schemas/tms/model'
import { validQuestion } from '../support/tms-fixtures'
import { DEMO, api, call, userWith } from './helpers'

const PERMS = ['dashboard_dashboard_access', 'tms_model_create', 'tms_model_get', 'tms_model_edit', 'tms_question_bank_create', 'tms_question_bank_get']

/** What people type to get a script to run: none of it may come back executable. */
const ATTACKS = [
  '<script>alert("s1")</script>',
  '<img src=x onerror="alert(\'s2\')">',
  '<a href="javascript:alert(\'s3\')">click</a>',
  '<a href=" JaVa\tScRiPt:alert(\'s4\')">tab</a>',
  '<svg onload="alert(\'s5\')"><script>alert("s6")</script></svg>',
  '<p style="background:url(javascript:alert(\'s7\'))" onclick="alert(\'s8\')">styled</p>',
  '<style>body{background:url("javascript:alert(\'s9\')")}</style>',
  '<iframe src="javascript:alert(\'s10\')"></iframe>',
  '<span data-latex="\\href{javascript:alert(\'s11\')}{x}" data-display="inline"></span>',
  "\"><img src=x onerror=alert('s12')>",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert('s13')></style></mglyph></table></mtext></math>",
]
const statement = `<p>Safe text of the question.</p>${ATTACKS.join('')}`

/** No tag or attribute that runs script, whatever the markup around it. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<script/i)
  expect(html).not.toMatch(/<(svg|iframe|style|object|embed|math)\b/i)
  expect(html).not.toMatch(/\son[a-z]+\s*=/i)
  expect(html).not.toMatch(/(href|src)\s*=\s*["']?\s*javascript:/i)
  expect(html).not.toMatch(/\sstyle\s*=/i)
}

/**
 * A rendered page region, element by element: outside KaTeX's own output nothing but the sanitizer's allowlist may
 * appear (no svg, math, style, event handler, javascript: URL); inside it KaTeX's MathML and inline styles are
 * expected, but still no script, frame, handler or javascript: URL (KaTeX runs with trust off).
 */
function expectInertPage(html: string) {
  const problems: string[] = []
  let katexDepth = 0
  const stack: boolean[] = []
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const opensKatex = katexDepth === 0 && name === 'span' && (attrs.class ?? '').split(/\s+/).includes('katex')
        stack.push(opensKatex)
        if (opensKatex) katexDepth++
        const inKatex = katexDepth > 0
        const forbidden = inKatex ? ['script', 'iframe', 'object', 'embed', 'style'] : ['script', 'iframe', 'object', 'embed', 'style', 'svg', 'math']
        if (forbidden.includes(name)) problems.push(`<${name}>`)
        for (const [k, v] of Object.entries(attrs)) {
          if (/^on/i.test(k)) problems.push(`${name}[${k}]`)
          if ((k === 'href' || k === 'src') && /^\s*javascript:/i.test(v.replace(/[\u0000-\u0020]/g, ''))) problems.push(`${name}[${k}=${v}]`)
          if (k === 'style' && !inKatex) problems.push(`${name}[style]`)
        }
      },
      onclosetag() {
        if (stack.pop()) katexDepth--
      },
    },
    { decodeEntities: true },
  )
  parser.write(html)
  parser.end()
  expect(problems).toEqual([])
}

describe('rich text is sanitized on the server', () => {
  it('stores and answers statements, options and comments without anything executable', async () => {
    const { token } = await userWith('demo', PERMS)
    const q = {
      ...validQuestion('single'),
      statement,
      comment: statement,
      options: [{ statement, answer: true }, { statement: '<b onmouseover="alert(1)">B</b>' }],
    }
    const res = await api(DEMO, 'tms/model', { method: 'POST', token, json: { title: 'Sanitized', questions: [q] } })
    expect(res.status, await res.clone().text()).toBe(201)
    const m = (await res.json()) as Model
    const stored = m.questions[0] as { statement: string; comment: string; options: { statement: string }[] }
    for (const html of [stored.statement, stored.comment, ...stored.options.map((o) => o.statement)]) expectInert(html)
    expect(stored.statement).toContain('<p>Safe text of the question.</p>')
    expect(stored.options[1].statement).toBe('<strong>B</strong>')
    // The formula stays as LaTeX in a data attribute, never as rendered markup.
    expect(stored.statement).toContain('data-latex="\\href{javascript:alert(&#39;s11&#39;)}{x}"')
  })

  it('shows nothing executable on the preview and resolution pages (KaTeX runs without trust)', async () => {
    const { token, cookie } = await userWith('demo', PERMS)
    const q = { ...validQuestion('single'), statement, comment: statement }
    const m = (await (await api(DEMO, 'tms/model', { method: 'POST', token, json: { title: 'Sanitized page', questions: [q] } })).json()) as Model
    for (const page of ['preview', 'resolution']) {
      const res = await call(DEMO, `/tms/model/${page}/${m.id}`, { headers: { cookie } })
      expect(res.status).toBe(200)
      const html = await res.text()
      // The questions as shown, after the page's own header and buttons (whose icons are the console's own SVG).
      const main = html.slice(html.indexOf('<main'), html.indexOf('</main>'))
      const questions = main.slice(main.indexOf('</header>'))
      expect(questions).toContain('Safe text of the question.')
      expect(questions).toContain('class="katex"')
      expectInertPage(questions)
      // The page's own data (for hydration) carries only the stored, sanitized text.
      const data = html.slice(html.indexOf('window.__remixContext'))
      expect(data).toContain('Safe text of the question.')
      expect(data).not.toMatch(/onerror|onload=|onclick|<svg|<iframe/i)
    }
  })

  it('sanitizes bank questions too', async () => {
    const { token } = await userWith('demo', PERMS)
    const res = await api(DEMO, 'tms/question_bank', { method: 'POST', token, json: { ...validQuestion('text'), statement, comment: statement } })
    expect(res.status, await res.clone().text()).toBe(201)
    const item = (await res.json()) as { statement: string; comment: string; statement_text: string }
    expectInert(item.statement)
    expectInert(item.comment)
    expect(item.statement_text).toContain('Safe text of the question.')
    expect(item.statement_text).not.toContain('alert("s1")')
  })
})
