/** A refused `/party/ticket` (its HTTP status, the envelope's cause and, where the view needs it, the message key). */
export class TicketError extends Error {
  constructor(
    readonly status: number,
    readonly cause: string,
    readonly detail = '',
  ) {
    super(`ticket ${status} ${cause}`)
  }
}

/**
 * A party socket's `query`: the first ticket on the first connection, a fresh one (`refetch`) on each reconnection,
 * with the last sequence seen (`since`, null when none yet). A refetch that fails is handed to `onError` (the view
 * stops or says why) and fails the attempt.
 */
export function ticketQuery(first: string, refetch: () => Promise<string>, onError: (err: unknown) => void, since: () => number | null) {
  let ready: string | null = first
  return async (): Promise<Record<string, string>> => {
    let ticket = ready
    ready = null
    if (!ticket) {
      try {
        ticket = await refetch()
      } catch (err) {
        onError(err)
        throw err
      }
    }
    const seq = since()
    return seq === null ? { ticket } : { ticket, since: String(seq) }
  }
}
