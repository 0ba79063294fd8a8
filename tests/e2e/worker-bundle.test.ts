import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { workerBundle } from '../support/worker-bundle'

/**
 * The Worker as wrangler would upload it (tests/support/worker-bundle.ts): the Worker entry and the Remix server
 * build share one copy of each library (the build leaves its dependencies as imports, vite.config.ts). A second
 * copy comes back if the build inlines them again, or if the Worker imports a module the build has inlined.
 */
describe('the Worker bundle', () => {
  it('holds each shared library once, and no editor', async () => {
    const bundle = await workerBundle()
    expect(bundle.libraries.map((l) => l.name)).toEqual(['katex', 'htmlparser2', 'valibot', '@remix-run/router'])
    for (const lib of bundle.libraries) expect(lib.copies, lib.name).toBe(1)
    // The editors are browser-only `.client` modules (app/components/tms/rich-text-editor.tsx): not in the Worker.
    expect(bundle.editorFiles).toEqual([])
    expect(bundle.editorsInServerBuild).toBe(false)
  })
})

describe("the browser's scripts", () => {
  it('carry no HTML parser library: rich text is tokenized by the browser itself (app/shared/html-tokens.browser.ts)', () => {
    const dir = 'build/client/assets'
    const scripts = readdirSync(dir).filter((f) => f.endsWith('.js'))
    expect(scripts.length).toBeGreaterThan(0)
    // htmlparser2's own callback name (tests/support/worker-bundle.ts uses it to count copies in the Worker).
    expect(scripts.filter((f) => readFileSync(`${dir}/${f}`, 'utf8').includes('onprocessinginstruction'))).toEqual([])
    expect(scripts.some((f) => readFileSync(`${dir}/${f}`, 'utf8').includes('new DOMParser'))).toBe(true)
  })
})
