import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
// The build the Worker runs (the `worker` condition); Node's own build (the tests' default) writes in other sizes.
const { renderToReadableStream } = require('react-dom/server.browser') as typeof import('react-dom/server')

/**
 * The Worker renders pages with react-dom/server's browser build, which wrote the HTML in 512-byte chunks (one
 * stream write each, about 100 per page). patches/react-dom+*.patch makes its buffer 16 KB in both builds.
 */
describe('server rendering writes large chunks (patches/react-dom+*.patch)', () => {
  it('is patched in the production and development builds the Worker and the tests load', () => {
    const dir = require.resolve('react-dom/server.browser').replace(/server\.browser\.js$/, 'cjs/')
    const production = readFileSync(`${dir}react-dom-server.browser.production.min.js`, 'utf8')
    expect(production).not.toContain('Uint8Array(512)')
    expect(production).toContain('new Uint8Array(16384)')
    expect(readFileSync(`${dir}react-dom-server.browser.development.js`, 'utf8')).toContain('var VIEW_SIZE = 16384;')
  })

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
