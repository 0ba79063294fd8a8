import { afterAll, afterEach } from 'vitest'
import { closeFileBrowser, unexpectedBrowserErrors } from './browser'

/** Any browser console error or uncaught page error fails the test it happened in (allow-list: browser.ts). */
function check(when: string) {
  const found = unexpectedBrowserErrors()
  if (found.length) throw new Error(`the browser logged errors ${when}:\n${found.map((m) => `  - ${m}`).join('\n')}`)
}
afterEach(() => check('during this test'))
afterAll(async () => {
  try {
    check('after the last test of this file')
  } finally {
    // The browser openPage() launched for this file.
    await closeFileBrowser()
  }
})
