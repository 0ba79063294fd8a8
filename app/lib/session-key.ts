/**
 * The visitor's session key (seed 000 §7, header x-session-key): random, kept in session storage for the tab's life.
 * Decision: no fingerprinting; the "random fallback" of the specification is always used.
 */
const STORAGE_KEY = 'dash.session_key'

export function sessionKey(): string {
  try {
    const known = sessionStorage.getItem(STORAGE_KEY)
    if (known && /^[\w-]{16,128}$/.test(known)) return known
    const fresh = `sk-${crypto.randomUUID()}`
    sessionStorage.setItem(STORAGE_KEY, fresh)
    return fresh
  } catch {
    // Storage may be unavailable (private modes); a key per page load still works.
    return `sk-${crypto.randomUUID()}`
  }
}
