const KEY = 'dash:chunk-reload'
const WINDOW_MS = 30_000

/** True for the errors browsers raise when a lazily loaded module (a route chunk) cannot be fetched. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : ''
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS/i.test(
    message,
  )
}

/**
 * A chunk that fails to load (usually a page left open across a deploy) refreshes the page once; a second failure
 * within 30 s is left to the error screen instead of reloading forever. Returns whether it reloaded.
 */
export function reloadOnce(): boolean {
  const last = Number(sessionStorage.getItem(KEY) ?? 0)
  if (Date.now() - last < WINDOW_MS) return false
  sessionStorage.setItem(KEY, String(Date.now()))
  window.location.reload()
  return true
}
