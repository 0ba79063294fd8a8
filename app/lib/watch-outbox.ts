import { WATCH_MAX_SLOTS } from '#shared/schemas/csm-watch'

/**
 * The watch slots a player has seen and the server has not acknowledged yet, kept in the browser's storage (issue 15),
 * per student and session: a report lost when the tab closes (a keepalive request or a beacon the browser drops, the
 * network gone) is sent again by the next csm page the student opens. The server counts a slot once, so sending one
 * again is harmless. Keyed by the student's login so another student signing in on the same phone never reports
 * someone else's viewing.
 */
const KEY = 'csm-watch-unsent'
type Store = Record<string, number[]>

const entryKey = (nick: string, sessionId: string) => `${nick}\n${sessionId}`

function read(): Store {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}')
    return parsed && typeof parsed === 'object' ? (parsed as Store) : {}
  } catch {
    return {}
  }
}

function write(store: Store) {
  try {
    if (Object.keys(store).length) localStorage.setItem(KEY, JSON.stringify(store))
    else localStorage.removeItem(KEY)
  } catch {
    // Storage full or refused (private mode): the report is only as safe as its request.
  }
}

/** The slots of a session not yet acknowledged. */
export function unsentSlots(nick: string, sessionId: string): number[] {
  const slots = read()[entryKey(nick, sessionId)]
  return Array.isArray(slots) ? slots.filter((s) => Number.isInteger(s) && s >= 0) : []
}

/** Replaces the slots of a session not yet acknowledged (none forgets the session). */
export function keepUnsent(nick: string, sessionId: string, slots: Iterable<number>) {
  const store = read()
  const list = [...new Set(slots)].sort((a, b) => a - b)
  if (list.length) store[entryKey(nick, sessionId)] = list
  else delete store[entryKey(nick, sessionId)]
  write(store)
}

/**
 * Sends every session's unacknowledged slots of this student (the list page does on opening) and forgets those the
 * server took — or refused for good (4xx: the session is gone or no longer the student's). Says whether any was
 * taken, so the page can read its progress again.
 */
export async function sendUnsent(nick: string, reportUrl: (sessionId: string) => string): Promise<boolean> {
  let taken = false
  for (const [key, slots] of Object.entries(read())) {
    const [owner, sessionId] = key.split('\n')
    if (owner !== nick || !sessionId || !Array.isArray(slots)) continue
    const batch = slots.slice(0, WATCH_MAX_SLOTS)
    try {
      const res = await fetch(reportUrl(sessionId), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ slots: batch }),
      })
      if (res.status >= 500) continue
      keepUnsent(
        nick,
        sessionId,
        unsentSlots(nick, sessionId).filter((s) => !batch.includes(s)),
      )
      taken ||= res.ok
    } catch {
      // Still offline: kept for the next page.
    }
  }
  return taken
}
