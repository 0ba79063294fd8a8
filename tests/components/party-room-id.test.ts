import type * as Party from 'partykit/server'
import { describe, expect, it } from 'vitest'
import { controlParty } from '../../party/channel-protocol'
import Quiz from '../../party/quiz'
import Room from '../../party/room'
import { roomIdOf } from '../../party/socket'
import { signTicket } from '../../party/ticket'

/**
 * PartyKit's `room.id` getter throws while an `onAlarm` of the same room is awaiting (its `inAlarm` flag is per
 * instance, so any request interleaving the alarm sees it) and in an instance an alarm woke (it never learns its id):
 * "You can not access `Party.id` in the `onAlarm` handler". A loaded machine showed it: the realm API's `end` control
 * request to a room party, arriving during the party's lease-renewal alarm, was answered 500 and the room's students
 * were never told the room closed. The parties take the id from the request or the verified ticket instead.
 *
 * The room object below stands in for PartyKit's (third-party): storage in a Map, no connections, and the id getter
 * that throws as PartyKit's does in an alarm.
 */
function alarmRoom(env: Record<string, string> = {}): Party.Room {
  const data = new Map<string, unknown>()
  const storage = {
    async get(keys: string | string[]) {
      return Array.isArray(keys) ? new Map(keys.filter((k) => data.has(k)).map((k) => [k, data.get(k)])) : data.get(keys)
    },
    async put(key: string | Record<string, unknown>, value?: unknown) {
      if (typeof key === 'string') data.set(key, value)
      else for (const [k, v] of Object.entries(key)) data.set(k, v)
    },
    async delete(keys: string | string[]) {
      for (const k of Array.isArray(keys) ? keys : [keys]) data.delete(k)
      return true
    },
    async list(opts: { prefix?: string } = {}) {
      return new Map([...data].filter(([k]) => k.startsWith(opts.prefix ?? '')))
    },
    async getAlarm() {
      return null
    },
    async setAlarm() {},
    async deleteAlarm() {},
  }
  return {
    get id(): string {
      throw new Error('You can not access `Party.id` in the `onAlarm` handler.')
    },
    env,
    storage,
    getConnections: () => [][Symbol.iterator](),
    broadcast: () => undefined,
  } as unknown as Party.Room
}

describe('party room ids during an alarm', () => {
  it('reads the room from a party URL', () => {
    expect(roomIdOf({ url: 'http://localhost:1999/parties/room/sala%201?x=1' })).toBe('sala 1')
    expect(roomIdOf({ url: 'http://localhost:1999/party/abc' })).toBe('abc')
  })

  it('answers the realm API’s control request to a room party whose alarm is running', async () => {
    const secret = 'test-secret'
    const party = new Room(alarmRoom({ PARTY_SECRET: secret }))
    const control = (room: string, ticketRoom: string) =>
      signTicket(secret, { party: controlParty('room'), room: ticketRoom, realm: 'demo', nick: 'root', name: '' }).then((ticket) =>
        party.onRequest(
          new Request(`http://localhost:1999/parties/room/${room}`, {
            method: 'POST',
            headers: { 'x-party-ticket': ticket, 'content-type': 'application/json' },
            body: JSON.stringify({ action: 'end', by: 'root' }),
          }) as unknown as Party.Request,
        ),
      )
    const ok = await control('r1', 'r1')
    expect(ok.status).toBe(200)
    expect(await ok.json()).toEqual({ ended: false })
    // The ticket is still checked against the room asked.
    expect((await control('r1', 'r2')).status).toBe(401)
  })

  it('starts a quiz party an alarm woke, in poll mode when its stored meta is a poll’s', async () => {
    const room = alarmRoom()
    await room.storage.put('meta', { pollId: 'p1', realm: 'demo' })
    const poll = new Quiz(room)
    await poll.onStart()
    expect((poll as unknown as { poll: unknown }).poll).not.toBeNull()

    const quiz = new Quiz(alarmRoom())
    await quiz.onStart()
    expect((quiz as unknown as { poll: unknown }).poll).toBeNull()
  })
})
