import { describe, expect, it } from 'vitest'
import { TicketError, ticketQuery } from '~/components/live/party-ticket'

/** The live hooks' socket query (channel and room views, the persona chat): one ticket a connection. */
describe('ticketQuery', () => {
  it('presents the first ticket once, then a fresh one on each reconnection, with the last sequence seen', async () => {
    let seq: number | null = null
    let fetched = 0
    const query = ticketQuery(
      'first',
      async () => `fresh-${++fetched}`,
      () => {
        throw new Error('no error expected')
      },
      () => seq,
    )
    expect(await query()).toEqual({ ticket: 'first' })
    seq = 7
    expect(await query()).toEqual({ ticket: 'fresh-1', since: '7' })
    expect(await query()).toEqual({ ticket: 'fresh-2', since: '7' })
    expect(fetched).toBe(2)
  })

  it('hands a refused reconnection ticket to onError and fails that attempt', async () => {
    const seen: unknown[] = []
    const refusal = new TicketError(403, 'banned', 'validation.live.banned')
    const query = ticketQuery(
      'first',
      () => Promise.reject(refusal),
      (err) => seen.push(err),
      () => null,
    )
    await query()
    await expect(query()).rejects.toBe(refusal)
    expect(seen).toEqual([refusal])
    expect([refusal.status, refusal.cause, refusal.detail]).toEqual([403, 'banned', 'validation.live.banned'])
  })
})
