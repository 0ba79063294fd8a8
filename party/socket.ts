import type * as Party from 'partykit/server'

/**
 * Answers a client's close frame. The runtime PartyKit runs on (workerd of 2024-07, before the
 * `web_socket_auto_reply_to_close` flag) does not reply on its own, so a client that closes waits for the reply —
 * Chromium several seconds — before it sees its socket closed and before partysocket reconnects.
 */
/**
 * The room's id without `room.id`: PartyKit's getter throws while an `onAlarm` of the same room is awaiting (its
 * `inAlarm` flag is per instance, so a request or message interleaving an alarm sees it: a control request answered
 * 500 on a loaded machine) and forever in an instance an alarm woke (it never learns its id). Handlers take it from
 * their request (`/parties/<party>/<room>`) or from the verified ticket, whose room is the one connected to.
 */
export function roomIdOf(request: { url: string }): string {
  const parts = new URL(request.url).pathname.split('/')
  return decodeURIComponent(parts[1] === 'parties' ? (parts[3] ?? '') : (parts[2] ?? ''))
}

/** `room.id` when PartyKit knows it here and now, else null (see roomIdOf). */
export function knownRoomId(room: Party.Room): string | null {
  try {
    return room.id
  } catch {
    return null
  }
}

export function answerClose(conn: Party.Connection): void {
  try {
    conn.close()
  } catch {
    // Already closed: nothing to answer.
  }
}
