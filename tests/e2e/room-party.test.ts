import { beforeAll, describe, expect, it } from 'vitest'
import { CLOSE_ENDED } from '../../party/channel-protocol'
import { realmApi, url } from './browser'
import { Client } from './live-client'

/**
 * Rooms go live (issue 13): the room party (party/room.ts, the channel party's machinery) with real WebSocket clients
 * against `partykit dev` as `npm start` runs it — tickets minted through admitRoomJoin, the room's members and editors,
 * the session ended by the grace after the last leave (LIVE_END_GRACE_MS, short in this run) or by closing the room.
 */

const tag = Date.now().toString(36)
let n = 0

type Api = Awaited<ReturnType<typeof realmApi>>
let root: Api
/** A student of this file's own (demo's shared accounts are changed by other files). */
const STUDENT = `aluna-sala-${tag}`
const OTHER = `aluno-sala-${tag}`
const PASSWORD = 'senha-da-sala-1'
let student: Api
let other: Api

async function makeRoom(extra: Record<string, unknown> = {}, members: string[] = [STUDENT]): Promise<{ id: string; name: string }> {
  const made = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Sala ao vivo ${tag} ${++n}`, ...extra })
  for (const nick of members) await root('POST', `room/room/${made.id}/member`, { nick })
  return made
}

const ticket = async (as: Api, roomId: string) => (await as<{ ticket: string; role: string }>('POST', `room/live/${roomId}/ticket`)).ticket
const join = async (as: Api, roomId: string) => Client.open(roomId, await ticket(as, roomId), undefined, 'room')

/** The realm API's refusal of a ticket: status and cause (realmApi throws `POST …: <status> <body>`). */
async function refusal(as: Api, roomId: string): Promise<{ status: number; cause: string; message: string }> {
  const err = await as('POST', `room/live/${roomId}/ticket`).then(
    () => null,
    (e: Error) => e,
  )
  expect(err).not.toBeNull()
  const [, status, body] = /: (\d{3}) (.*)$/s.exec(err!.message) ?? []
  const first = (JSON.parse(body) as { errors: { cause: string; message: string }[] }).errors[0]
  return { status: Number(status), cause: first.cause, message: first.message }
}

describe('room party', () => {
  beforeAll(async () => {
    root = await realmApi('demo', 'root')
    for (const [nick, name] of [
      [STUDENT, 'Aluna da Sala'],
      [OTHER, 'Aluno da Sala'],
    ])
      await root('POST', 'mas/user', { nick, name, password: PASSWORD, roles: [] })
    student = await realmApi('demo', STUDENT, PASSWORD)
    other = await realmApi('demo', OTHER, PASSWORD)
  })

  it('a member joins as participant and an editor as admin: presence and chat reach both, the welcome names the room', async () => {
    const room = await makeRoom()
    const admin = await join(root, room.id)
    const hello = await admin.next('welcome')
    expect(hello.you).toMatchObject({ nick: 'root@demo', role: 'admin' })
    expect(hello.channel).toEqual({ id: room.id, name: room.name })
    const member = await join(student, room.id)
    expect((await member.next('welcome')).you).toMatchObject({ nick: `${STUDENT}@demo`, role: 'participant' })
    await admin.next('joined', (e) => e.member.nick === `${STUDENT}@demo`)

    member.send({ type: 'chat', id: 's1', text: 'Bom dia, professor' })
    expect((await admin.next('chat')).message).toMatchObject({ text: 'Bom dia, professor', role: 'participant' })
    expect((await member.next('ack', (e) => e.id === 's1')).seq).toBe(1)
    member.send({ type: 'hand', raised: true })
    expect((await admin.next('member', (e) => e.member.hand)).member.nick).toBe(`${STUDENT}@demo`)
    // A participant may not end the session; a room ban holds for the session (rooms store no member permissions).
    member.send({ type: 'end' })
    expect((await member.next('error', (e) => e.cause === 'forbidden')).cause).toBe('forbidden')

    // A non-member is refused at the ticket.
    expect(await refusal(other, room.id)).toMatchObject({ status: 403, cause: 'members_only' })
    admin.close()
    member.close()
  })

  it('a closed room and a room outside its window refuse the ticket with their causes', async () => {
    const closed = await makeRoom()
    await root('POST', `room/room/${closed.id}/close`)
    expect(await refusal(student, closed.id)).toMatchObject({ status: 409, cause: 'closed', message: 'validation.room.closed' })

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString()
    const later = await makeRoom({ enable_at: tomorrow })
    expect(await refusal(student, later.id)).toMatchObject({ status: 409, cause: 'not_active', message: 'validation.room.not_yet_active' })

    // A ticket minted while the room was open, used after it closed: the party refuses it too, saying why.
    const open = await makeRoom()
    const early = await ticket(student, open.id)
    await root('POST', `room/room/${open.id}/close`)
    const late = await Client.open(open.id, early, undefined, 'room')
    expect((await late.next('error')).cause).toBe('closed')
    await expect.poll(() => late.closed).toBe(4003)
  })

  it("the realm's users per environment: a full environment refuses a member's ticket, and a leave frees the place", async () => {
    // A realm of its own (a child of demo) allowing one live user, so nothing else live in the run counts.
    const code = `s${tag.slice(-8)}`
    await root('POST', 'mas/realm', { code, name: `Salas ao vivo ${tag}`, parent_code: 'demo', max_users_per_environment: 1 })
    const signin = await fetch(url('localhost', '/api/device'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': 'demo' },
      body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
    })
    const { auth_token } = (await signin.json()) as { auth_token: string }
    const change = await fetch(url('localhost', '/api/mas/realm/demo/change'), {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-api-realm': 'demo', 'x-api-key': auth_token },
      body: JSON.stringify({ leaf_realm: code }),
    })
    expect(change.status, await change.clone().text()).toBe(200)
    const token = ((await change.json()) as { auth_token: string }).auth_token
    const call = (path: string, body: unknown, key = token) =>
      fetch(url('localhost', `/api/${path}`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-realm': code, 'x-api-key': key },
        body: JSON.stringify(body),
      })
    const made = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await call(path, body)
      expect(res.status, await res.clone().text()).toBe(201)
      return (await res.json()) as T
    }
    const ana = await made<{ nick: string }>('mas/user', { nick: 'ana', name: 'Ana', password: PASSWORD })
    const bia = await made<{ nick: string }>('mas/user', { nick: 'bia', name: 'Bia', password: PASSWORD })
    const room = await made<{ id: string }>('room/room', { name: `Capacidade ${tag}` })
    for (const m of [ana, bia]) expect((await call(`room/room/${room.id}/member`, { nick: m.nick })).status).toBeLessThan(300)
    const keyOf = async (nick: string) => {
      const res = await fetch(url('localhost', '/api/device'), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-realm': code },
        body: JSON.stringify({ realm: code, nick, password: PASSWORD }),
      })
      expect(res.status, await res.clone().text()).toBe(200)
      return ((await res.json()) as { auth_token: string }).auth_token
    }
    const [anaKey, biaKey] = [await keyOf(ana.nick), await keyOf(bia.nick)]

    const first = await call(`room/live/${room.id}/ticket`, undefined, anaKey)
    expect(first.status, await first.clone().text()).toBe(200)
    const inRoom = await Client.open(room.id, ((await first.json()) as { ticket: string }).ticket, undefined, 'room')
    await inRoom.next('welcome')
    const refused = await call(`room/live/${room.id}/ticket`, undefined, biaKey)
    expect(refused.status).toBe(422)
    expect(((await refused.json()) as { errors: { cause: string; message: string }[] }).errors[0]).toMatchObject({
      cause: 'limit',
      message: 'validation.live.max_environment',
    })
    inRoom.close()
    let second: Response | null = null
    await expect
      .poll(async () => {
        second = await call(`room/live/${room.id}/ticket`, undefined, biaKey)
        return second.status
      })
      .toBe(200)
    const next = await Client.open(room.id, ((await second!.json()) as { ticket: string }).ticket, undefined, 'room')
    expect((await next.next('welcome')).you.name).toBe('Bia')
    next.close()
  })

  it("a recorded room's session ends after its last participant left and is written as a csm_session recorded in the room", async () => {
    const room = await makeRoom({ recording: true })
    const member = await join(student, room.id)
    await member.next('welcome')
    member.send({ type: 'chat', id: 'r1', text: 'Gravando' })
    await member.next('ack', (e) => e.id === 'r1')
    member.send({ type: 'hand', raised: true })
    await member.next('member', (e) => e.member.hand)
    member.close()
    type Session = { id: string; room_id: string; recorded_in: string; title: string; chat_count: number; hand_raise_count: number; peak_participants: number }
    await expect.poll(async () => (await root<{ items: Session[] }>('GET', `room/live/${room.id}/session`)).items.length, { timeout: 20_000 }).toBe(1)
    const [session] = (await root<{ items: Session[] }>('GET', `room/live/${room.id}/session`)).items
    expect(session).toMatchObject({ room_id: room.id, recorded_in: 'room', title: room.name, chat_count: 1, hand_raise_count: 1, peak_participants: 1 })

    // The next session is a new one: joining again starts it, and the chat said before is history (sequence goes on).
    const again = await join(student, room.id)
    const welcome = await again.next('welcome')
    expect(welcome.seq).toBe(1)
    again.close()
  })

  it('closing a parent room ends the live sessions of it and its breakouts: everyone is told and closed', async () => {
    const parent = await makeRoom()
    const breakout = await root<{ id: string; name: string }>('POST', `room/room/${parent.id}/breakout`, { name: `Grupo ${tag} ${++n}` })
    // The parent's members join its breakouts (breakouts start without members).
    const inParent = await join(root, parent.id)
    await inParent.next('welcome')
    const inBreakout = await join(student, breakout.id)
    expect((await inBreakout.next('welcome')).channel).toEqual({ id: breakout.id, name: breakout.name })

    const closed = await root<{ breakouts_closed: number; live_ended: number }>('POST', `room/room/${parent.id}/close`)
    expect(closed).toMatchObject({ breakouts_closed: 1, live_ended: 2 })
    for (const c of [inParent, inBreakout]) {
      await c.next('ended')
      await expect.poll(() => c.closed).toBe(CLOSE_ENDED)
    }
    expect(await refusal(student, breakout.id)).toMatchObject({ status: 409, cause: 'closed' })
  })
})
