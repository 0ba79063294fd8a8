import { afterAll, afterEach, beforeEach } from 'vitest'

/**
 * Makes any `console.error` during a test fail that test (and one logged in a file's hooks fail its last test or the
 * file). A test that expects an error log asserts it: `const spy = vi.spyOn(console, 'error').mockImplementation(() =>
 * {})`, then `expect(spy).toHaveBeenCalledWith(…)` and `spy.mockRestore()`; while the spy is installed the calls go to it,
 * not to the watcher. Installed by the workers and components setup files.
 */
export function failOnConsoleError(): void {
  // Where files share a module context (the workers project), the setup runs again per file: wrap the real one once.
  const holder = globalThis as { __consoleErrorOriginal?: typeof console.error }
  holder.__consoleErrorOriginal ??= console.error.bind(console)
  const original = holder.__consoleErrorOriginal
  let logged: string[] = []
  const watcher = (...args: unknown[]) => {
    logged.push(args.map(describe).join(' '))
    original(...args)
  }
  console.error = watcher

  const check = (when: string) => {
    const seen = logged
    logged = []
    if (seen.length) throw new Error(`console.error was called ${when} (assert expected error logs with a spy):\n${seen.map((s) => `  - ${s}`).join('\n')}`)
  }
  beforeEach(() => check('before this test (in a hook or by an earlier test after it ended)'))
  afterEach(() => {
    // A test that left its own spy installed: put the watcher back for the next test.
    console.error = watcher
    check('during this test')
  })
  afterAll(() => check('after the last test of this file'))
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`
  if (typeof value === 'string') return value.length > 500 ? `${value.slice(0, 500)}…` : value
  try {
    return JSON.stringify(value)?.slice(0, 500) ?? String(value)
  } catch {
    return String(value)
  }
}
