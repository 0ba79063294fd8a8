import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
// The build the Worker runs (the `worker` condition); Node's own build (the tests' default) writes in other sizes.
const { renderToReadableStream } = require('react-dom/server.browser') as typeof import('react-dom/server')

/**
 * The Worker renders pages with react-dom/server's browser build, which wrote the HTML in 512-byte chunks (one
 * stream write each, about 100 per page) and encoded every fragment of it (a tag's start, each attribute's name,
 * `="`, value and `"`) with its own TextEncoder.encode, then copied the bytes into its buffer: about half of a page's
 * render CPU. patches/react-dom+*.patch keeps the fragments as strings and encodes them once per 16 KB, in both builds.
 */
describe('server rendering writes large chunks (patches/react-dom+*.patch)', () => {
  it('is patched in the production and development builds the Worker and the tests load', () => {
    const dir = require.resolve('react-dom/server.browser').replace(/server\.browser\.js$/, 'cjs/')
    const production = readFileSync(`${dir}react-dom-server.browser.production.min.js`, 'utf8')
    expect(production).not.toContain('Uint8Array(512)')
    expect(production).toContain('function p(a,b){l+=b;16384<=l.length&&(a.enqueue(ca.encode(l)),l="")}')
    expect(production).toContain('function u(a){return a}function w(a){return a}')
    const development = readFileSync(`${dir}react-dom-server.browser.development.js`, 'utf8')
    expect(development).toContain('var VIEW_SIZE = 16384;')
    expect(development).toContain('pendingText += chunk;')
  })

  const cjs = require.resolve('react-dom/server.browser').replace(/server\.browser\.js$/, 'cjs/')
  it.each(['production.min', 'development'])(
    '%s build: writes text, attributes and characters outside ASCII byte for byte as React renders them to a string',
    async (build) => {
      const { renderToString } = require('react-dom/server.browser') as typeof import('react-dom/server')
      const { renderToReadableStream } = require(`${cjs}react-dom-server.browser.${build}.js`) as typeof import('react-dom/server')
      // Accents, a character outside the BMP (a surrogate pair) and escaping, many times over so they cross the
      // 16 KB boundaries where the joined text is encoded.
      const rows = Array.from({ length: 600 }, (_, i) => `Usuário ${i} — São Paulo 😀 <b>&"'`)
      const page = (
        <table>
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-row-id={`u${i}`} title={r} className={i % 2 ? 'odd' : undefined}>
                <td aria-label={r}>{r}</td>
                <td>{i}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )
      const stream = await renderToReadableStream(page)
      await stream.allReady
      const reader = stream.getReader()
      const chunks: Uint8Array[] = []
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
      const bytes = Buffer.concat(chunks)
      expect(bytes.length).toBeGreaterThan(3 * 16_384)
      expect(new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toBe(renderToString(page))
    },
  )

  it('streams a 40 KB page in a few chunks, byte for byte the same HTML', async () => {
    const rows = Array.from({ length: 450 }, (_, i) => `row ${i} ${'x'.repeat(80)}`)
    const stream = await renderToReadableStream(
      <ul>
        {rows.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>,
    )
    await stream.allReady
    const reader = stream.getReader()
    const chunks: Uint8Array[] = []
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value)
    const html = new TextDecoder().decode(Buffer.concat(chunks))
    expect(html).toBe(`<ul>${rows.map((r) => `<li>${r}</li>`).join('')}</ul>`)
    expect(html.length).toBeGreaterThan(40_000)
    expect(chunks.length).toBeLessThanOrEqual(4)
  })
})
