import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import type { LiveChannelState } from '#shared/schemas/channel-live'
import { signTicket, verifyTicket } from '../../party/ticket'
import { realmWith, room } from './factories'
import { DEMO, ESCOLA, api, expectEnvelope, userWith } from './helpers'

/** The room party's side of the realm API (issue 13 "rooms go live"): tickets through admitRoomJoin, party calls, recorded sessions. */

const SECRET = 'test-party-secret'
const EDITOR = ['room_room_list', 'room_room_get', 'room_room_edit']

const someone = (label: string, realm = 'demo') => userWith(realm, [`x_rl_${label}`])
const ticketOf = (host: string, id: string, token?: string) => api(host, `room/live/${id}/ticket`, { method: 'POST', token })
const partyHeaders = async (roomId: string, realm = 'demo', party = 'room-api') => ({
  'x-party-ticket': await signTicket(SECRET, { party, room: roomId, realm, nick: 'party', name: 'party' }),
})
const sql = (query: string, ...params: unknown[]) =>
  env.DB.prepare(query)
    .bind(...params)
    .run()

const ended = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  topic: 'Frações',
  started_at: Date.parse('2026-05-01T10:00:00Z'),
  ended_at: Date.parse('2026-05-01T10:30:00Z'),
  ended_by: '',
  peak_participants: 2,
  live_durations: { a: 1800, b: 600 },
  chat_count: 4,
  attachment_count: 1,
  hand_raise_count: 2,
  ...over,
})

describe('room tickets', () => {
  it('a member joins as participant, a room editor as admin, a room reader as participant; others are refused', async () => {
    const member = await someone('member')
    const r = await room('demo', { members: [member.nick] })
    const res = await ticketOf(DEMO, r.id, member.token)
    expect(res.status, await res.clone().text()).toBe(200)
    const body = (await res.json()) as { ticket: string; party: string; room: string; role: string }
    expect(body).toMatchObject({ party: 'room', room: r.id, role: 'participant' })
    expect(await verifyTicket(SECRET, body.ticket, 'room', r.id)).toMatchObject({ nick: member.nick, role: 'participant', realm: 'demo' })
    // A channel ticket is not a room ticket.
    expect(await verifyTicket(SECRET, body.ticket, 'channel', r.id)).toBeNull()

    const editor = await userWith('demo', EDITOR)
    expect(await (await ticketOf(DEMO, r.id, editor.token)).json()).toMatchObject({ role: 'admin' })
    const reader = await userWith('demo', ['room_room_list', 'room_room_get'])
    expect(await (await ticketOf(DEMO, r.id, reader.token)).json()).toMatchObject({ role: 'participant' })

    await expectEnvelope(await ticketOf(DEMO, r.id, (await someone('outsider')).token), 403, 'members_only')
    await expectEnvelope(await ticketOf(DEMO, 'r-nope', member.token), 404, 'not_found')
    await expectEnvelope(await ticketOf(ESCOLA, r.id, (await userWith('escola', EDITOR)).token), 404, 'not_found')
    expect((await ticketOf(DEMO, r.id)).status).toBe(401)
  })

  it('a closed room and a room outside its window refuse the ticket with their causes, minting nothing', async () => {
    const member = await someone('window')
    const closed = await room('demo', { members: [member.nick] })
    await sql('UPDATE room SET closed_at = ? WHERE id = ?', new Date().toISOString(), closed.id)
    await expectEnvelope(await ticketOf(DEMO, closed.id, member.token), 409, 'closed')

    const later = await room('demo', { members: [member.nick] })
    await sql('UPDATE room SET enable_at = ? WHERE id = ?', new Date(Date.now() + 86_400_000).toISOString(), later.id)
    const early = await expectEnvelope(await ticketOf(DEMO, later.id, member.token), 409, 'not_active')
    expect(early.errors[0].message).toBe('validation.room.not_yet_active')

    const over = await room('demo', { members: [member.nick] })
    await sql('UPDATE room SET disable_at = ? WHERE id = ?', new Date(Date.now() - 60_000).toISOString(), over.id)
    const past = await expectEnvelope(await ticketOf(DEMO, over.id, member.token), 409, 'not_active')
    expect(past.errors[0].message).toBe('validation.room.no_longer_active')

    const leases = await env.DB.prepare('SELECT COUNT(*) AS n FROM live_presence WHERE realm = ? AND nick = ?').bind('demo', member.nick).first<{ n: number }>()
    expect(leases?.n).toBe(0)
  })

  it("a breakout admits its parent's members; closing the parent closes the breakout's door", async () => {
    const member = await someone('breakout')
    const parent = await room('demo', { members: [member.nick] })
    const breakout = await room('demo')
    await sql('UPDATE room SET parent_id = ? WHERE id = ?', parent.id, breakout.id)
    expect(await (await ticketOf(DEMO, breakout.id, member.token)).json()).toMatchObject({ party: 'room', room: breakout.id, role: 'participant' })
    const editor = await userWith('demo', EDITOR)
    const close = await api(DEMO, `room/room/${parent.id}/close`, { method: 'POST', token: editor.token })
    expect(close.status, await close.clone().text()).toBe(200)
    expect(await close.json()).toMatchObject({ breakouts_closed: 1 })
    await expectEnvelope(await ticketOf(DEMO, breakout.id, member.token), 409, 'closed')
    await expectEnvelope(await ticketOf(DEMO, parent.id, member.token), 409, 'closed')
  })

  it("the realm's users per environment refuse a ticket with limit (room editors pass and count); users per room too", async () => {
    const { code, host } = await realmWith({ max_users_per_environment: 1, max_users_per_room: -1 })
    const [a, b] = [await someone('env-a', code), await someone('env-b', code)]
    const r = await room(code, { members: [a.nick, b.nick] })
    expect((await ticketOf(host, r.id, a.token)).status).toBe(200)
    const full = await expectEnvelope(await ticketOf(host, r.id, b.token), 422, 'limit')
    expect(full.errors[0]).toMatchObject({ message: 'validation.live.max_environment', value: 1 })
    // A re-join passes; an editor passes whatever the limit.
    expect((await ticketOf(host, r.id, a.token)).status).toBe(200)
    const editor = await userWith(code, EDITOR)
    expect(await (await ticketOf(host, r.id, editor.token)).json()).toMatchObject({ role: 'admin' })

    const small = await realmWith({ max_users_per_environment: -1, max_users_per_room: 1 })
    const [c, d] = [await someone('room-c', small.code), await someone('room-d', small.code)]
    const s = await room(small.code, { members: [c.nick, d.nick] })
    expect((await ticketOf(small.host, s.id, c.token)).status).toBe(200)
    const roomFull = await expectEnvelope(await ticketOf(small.host, s.id, d.token), 422, 'limit')
    expect(roomFull.errors[0]).toMatchObject({ message: 'validation.live.max_room', value: 1 })
  })
})

describe('the room party calls', () => {
  it("state: the room in the channel party's shape, its members, the realm's room messaging limits; only with the room's service ticket", async () => {
    const { code, host } = await realmWith({ room_msg_delay: 3, room_msg_per_day: 40, msg_per_second: 2, msg_drop_rate: 120 })
    const member = await someone('state', code)
    const r = await room(code, { members: [member.nick] })
    await sql("UPDATE room SET recording = 1, type = 'meeting' WHERE id = ?", r.id)
    const res = await api(host, `room/live/${r.id}/state`, { headers: await partyHeaders(r.id, code) })
    expect(res.status, await res.clone().text()).toBe(200)
    const state = (await res.json()) as LiveChannelState
    expect(state.channel).toMatchObject({ id: r.id, name: r.name, has_password: false, modes: { private: true } })
    expect(state.members).toEqual({ [member.nick]: 'participant' })
    expect(state.limits).toMatchObject({ msg_min_interval_seconds: 3, msg_per_day: 40, msg_per_second: 2, msg_drop_rate: 120 })
    expect(state.room).toEqual({ type: 'meeting', recording: true, parent_id: null, parent_name: null, refuse: null, breakouts: [] })

    // Issue 20 live breakouts: a room's state lists its open breakout rooms (by name); a breakout's names its parent.
    const [b1, b2] = [await room(code, { name: `B ${r.id}` }), await room(code, { name: `A ${r.id}` })]
    await sql('UPDATE room SET parent_id = ? WHERE id IN (?, ?)', r.id, b1.id, b2.id)
    const withBreakouts = (await (await api(host, `room/live/${r.id}/state`, { headers: await partyHeaders(r.id, code) })).json()) as LiveChannelState
    expect(withBreakouts.room?.breakouts).toEqual([
      { id: b2.id, name: b2.name },
      { id: b1.id, name: b1.name },
    ])
    await sql('UPDATE room SET closed_at = ? WHERE id = ?', new Date().toISOString(), b2.id)
    const oneOpen = (await (await api(host, `room/live/${r.id}/state`, { headers: await partyHeaders(r.id, code) })).json()) as LiveChannelState
    expect(oneOpen.room?.breakouts).toEqual([{ id: b1.id, name: b1.name }])
    const inside = (await (await api(host, `room/live/${b1.id}/state`, { headers: await partyHeaders(b1.id, code) })).json()) as LiveChannelState
    expect(inside.room).toMatchObject({ parent_id: r.id, parent_name: r.name, breakouts: [] })

    await sql('UPDATE room SET closed_at = ? WHERE id = ?', new Date().toISOString(), r.id)
    const closed = (await (await api(host, `room/live/${r.id}/state`, { headers: await partyHeaders(r.id, code) })).json()) as LiveChannelState
    expect(closed.room?.refuse).toBe('closed')

    expect((await api(host, `room/live/${r.id}/state`, { headers: await partyHeaders(r.id, code, 'channel-api') })).status).toBe(401)
    expect((await api(host, `room/live/${r.id}/state`, { headers: await partyHeaders('r-other', code) })).status).toBe(401)
    expect((await api(host, `room/live/${r.id}/state`)).status).toBe(401)
    // Another realm's ticket finds no such room.
    expect((await api(DEMO, `room/live/${r.id}/state`, { headers: await partyHeaders(r.id, 'demo') })).status).toBe(404)
  })

  it('chat batches are stored once per (room, seq) and read back after a sequence', async () => {
    const r = await room('demo')
    const messages = [1, 2, 3].map((seq) => ({
      seq,
      id: `c-${seq}`,
      nick: 'someone',
      name: 'Someone',
      role: 'participant',
      text: `m${seq}`,
      at: 1_700_000_000_000 + seq,
    }))
    const post = async () => api(DEMO, `room/live/${r.id}/messages`, { method: 'POST', headers: await partyHeaders(r.id), json: { messages } })
    expect(await (await post()).json()).toEqual({ stored: 3, received: 3 })
    expect(await (await post()).json()).toEqual({ stored: 0, received: 3 })
    const after = (await (await api(DEMO, `room/live/${r.id}/messages?after=1`, { headers: await partyHeaders(r.id) })).json()) as { items: { seq: number }[] }
    expect(after.items.map((m) => m.seq)).toEqual([2, 3])
    const inChannels = await env.DB.prepare('SELECT COUNT(*) AS n FROM channel_message WHERE channel_id = ?').bind(r.id).first<{ n: number }>()
    expect(inChannels?.n).toBe(0)
  })

  it("a recorded room's ended session is a csm_session recorded in 'room' with the room's name; a room that does not record keeps none", async () => {
    const recorded = await room('demo')
    await sql('UPDATE room SET recording = 1 WHERE id = ?', recorded.id)
    const id = crypto.randomUUID()
    const first = await api(DEMO, `room/live/${recorded.id}/session`, { method: 'POST', headers: await partyHeaders(recorded.id), json: ended(id) })
    expect(first.status, await first.clone().text()).toBe(201)
    expect(await first.json()).toMatchObject({ stored: true, recorded: true })
    const again = await api(DEMO, `room/live/${recorded.id}/session`, { method: 'POST', headers: await partyHeaders(recorded.id), json: ended(id) })
    expect(await again.json()).toMatchObject({ stored: false, recorded: true })
    const row = await env.DB.prepare('SELECT * FROM csm_session WHERE id = ?').bind(id).first<Record<string, unknown>>()
    expect(row).toMatchObject({
      realm: 'demo',
      title: recorded.name,
      recorded_in: 'room',
      channel_id: '',
      live_seconds: 1800,
      chat_count: 4,
      hand_raise_count: 2,
    })

    const editor = await userWith('demo', EDITOR)
    const list = (await (await api(DEMO, `room/live/${recorded.id}/session`, { token: editor.token })).json()) as { items: Record<string, unknown>[] }
    expect(list.items).toHaveLength(1)
    expect(list.items[0]).toMatchObject({ id, room_id: recorded.id, recorded_in: 'room', title: recorded.name, live_durations: { a: 1800, b: 600 } })
    expect((await api(DEMO, `room/live/${recorded.id}/session`, { token: (await someone('nosee')).token })).status).toBe(403)

    const plain = await room('demo')
    const other = crypto.randomUUID()
    const res = await api(DEMO, `room/live/${plain.id}/session`, { method: 'POST', headers: await partyHeaders(plain.id), json: ended(other) })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ stored: false, recorded: false })
    expect(await env.DB.prepare('SELECT id FROM csm_session WHERE id = ?').bind(other).first()).toBeNull()
    await expectEnvelope(
      await api(DEMO, `room/live/${recorded.id}/session`, {
        method: 'POST',
        headers: await partyHeaders(recorded.id),
        json: { ...ended('x'), chat_count: -1 },
      }),
      400,
    )
  })

  it("presence frees a leaver's place in party room (taken by the ticket)", async () => {
    const member = await someone('presence')
    const r = await room('demo', { members: [member.nick] })
    const live = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM live_presence WHERE realm = 'demo' AND party = 'room' AND room = ? AND nick = ? AND expires_at > ?")
        .bind(r.id, member.nick, new Date().toISOString())
        .first<{ n: number }>()
    expect((await ticketOf(DEMO, r.id, member.token)).status).toBe(200)
    expect((await live())?.n).toBe(1)
    const res = await api(DEMO, `room/live/${r.id}/presence`, { method: 'POST', headers: await partyHeaders(r.id), json: { left: [member.nick] } })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(await res.json()).toEqual({ present: 0, left: 1 })
    expect((await live())?.n).toBe(0)
    await expectEnvelope(await api(DEMO, `room/live/${r.id}/presence`, { method: 'POST', headers: await partyHeaders(r.id), json: {} }), 400)
  })
})
