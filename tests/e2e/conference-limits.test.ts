import { beforeAll, describe, expect, it } from 'vitest'
import { txPeriod } from '#shared/schemas/channel-live'
import { realmApi, url } from './browser'
import { Client } from './live-client'

/**
 * Transmission limits and the party's audio mute (issue 20), with real WebSocket clients against `partykit dev`: the
 * realm's transmission seconds per renewal period and, in console rooms, `room_tx_duration` / `room_tx_interval` are
 * counted by the party, which refuses a transmission once they are used up and stops a running one (`tx_stopped`); the
 * count lives in D1, so another live room — a party that never saw the user — refuses them too. A muted participant's
 * audio, and everyone's but the owner's and the invited's under "mute collaborators", are refused until allowed.
 * Each limit test runs in a realm of its own (a child of demo), so nothing else in the run is limited.
 */

const tag = Date.now().toString(36)
const PASSWORD = 'senha-dos-limites-1'
let n = 0
type Api = Awaited<ReturnType<typeof realmApi>>
let root: Api

const sdp = (audio: string | null, video: string | null) =>
  [
    'v=0',
    'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    ...(audio ? ['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'c=IN IP4 0.0.0.0', `a=${audio}`, 'a=rtpmap:111 opus/48000/2'] : []),
    ...(video ? ['m=video 9 UDP/TLS/RTP/SAVPF 96', 'c=IN IP4 0.0.0.0', `a=${video}`, 'a=rtpmap:96 VP8/90000'] : []),
  ].join('\r\n') + '\r\n'
const AV = sdp('sendrecv', 'sendrecv')
const AUDIO = sdp('sendrecv', 'recvonly')
const VIDEO = sdp('recvonly', 'sendrecv')
const WATCH = sdp('recvonly', 'recvonly')

/** A child realm of demo with `limits`, root switched into it, and users (password PASSWORD) signed in there. */
async function childRealm(limits: Record<string, unknown>, nicks: string[]) {
  const code = `x${tag.slice(-7)}${++n}`
  await root('POST', 'mas/realm', { code, name: `Limites ${tag} ${n}`, parent_code: 'demo', ...limits })
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const signin = await fetch(url('localhost', '/api/device'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
  })
  const { auth_token } = (await signin.json()) as { auth_token: string }
  const change = await fetch(url('localhost', '/api/mas/realm/demo/change'), {
    method: 'PUT',
    headers: { ...headers, 'x-api-key': auth_token },
    body: JSON.stringify({ leaf_realm: code }),
  })
  expect(change.status, await change.clone().text()).toBe(200)
  const token = ((await change.json()) as { auth_token: string }).auth_token
  const as =
    (key: string) =>
    async <T>(path: string, body?: unknown): Promise<T> => {
      const res = await fetch(url('localhost', `/api/${path}`), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-realm': code, 'x-api-key': key },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      expect(res.status, await res.clone().text()).toBeLessThan(300)
      return (await res.json()) as T
    }
  const admin = as(token)
  const users: Record<string, { nick: string; call: ReturnType<typeof as> }> = {}
  for (const nick of nicks) {
    const made = await admin<{ nick: string }>('mas/user', { nick, name: nick, password: PASSWORD })
    const res = await fetch(url('localhost', '/api/device'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': code },
      body: JSON.stringify({ realm: code, nick: made.nick, password: PASSWORD }),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    users[nick] = { nick: made.nick, call: as(((await res.json()) as { auth_token: string }).auth_token) }
  }
  return { code, admin, users }
}

const join = async (call: (path: string) => Promise<{ ticket: string }>, party: 'channel' | 'room', id: string) => {
  const c = await Client.open(id, (await call(`${party}/live/${id}/ticket`)).ticket, undefined, party)
  await c.next('welcome')
  return c
}

describe('transmission limits and the party’s audio mute', () => {
  beforeAll(async () => {
    root = await realmApi('demo', 'root')
  })

  it('the renewal periods are fixed windows from a Monday (UTC), so every party and the realm API agree', () => {
    const monday = Date.UTC(2026, 10, 23)
    expect(txPeriod(monday + 3_600_000, 7)).toEqual({ start: monday, end: monday + 7 * 86_400_000 })
    expect(txPeriod(monday - 1, 7).end).toBe(monday)
    expect(txPeriod(monday + 5, 1)).toEqual({ start: monday, end: monday + 86_400_000 })
  })

  it("the realm's transmission seconds per period: a running transmission is stopped when they run out, and every live room refuses the next", async () => {
    const { admin, users } = await childRealm({ room_tx_weekly_seconds: 2, room_tx_renewal_days: 7 }, ['dono', 'ana', 'bia'])
    const { dono, ana, bia } = users
    const channel = await admin<{ id: string }>('channel', {
      name: `Semanal ${tag}`,
      members: [
        { nick: dono.nick, permission: 'owner' },
        { nick: ana.nick, permission: 'operator' },
      ],
    })
    const owner = await join(dono.call, 'channel', channel.id)
    const a = await join(ana.call, 'channel', channel.id)
    a.send({ type: 'offer', to: dono.nick, sdp: AV })
    expect((await owner.next('offer')).from).toBe(ana.nick)
    await owner.next('member', (e) => e.member.nick === ana.nick && e.member.media !== undefined)
    // Two seconds later the party stops her: she is told why and until when; presence no longer shows her transmitting.
    const stopped = await a.next('tx_stopped')
    expect(stopped.cause).toBe('tx_weekly')
    const renews = txPeriod(Date.now(), 7).end
    expect(Math.abs(Date.now() + (stopped.retry_after_ms ?? 0) - renews)).toBeLessThan(60_000)
    await owner.next('member', (e) => e.member.nick === ana.nick && e.member.media === undefined)
    // A new transmission is refused; receiving still works (a receive-only answer goes through).
    let seen = a.events.length
    a.send({ type: 'offer', to: dono.nick, sdp: AUDIO })
    const refused = await a.next('error', (e) => e.cause === 'tx_weekly', seen)
    expect(refused.retry_after_ms).toBeGreaterThan(0)
    a.send({ type: 'answer', to: dono.nick, sdp: WATCH })
    expect((await owner.next('answer')).from).toBe(ana.nick)
    // The owner has her own count.
    owner.send({ type: 'offer', to: ana.nick, sdp: AV })
    expect((await a.next('offer')).from).toBe(dono.nick)
    a.close()
    owner.close()

    // A console room's party never saw her: it reads her count from the realm API and refuses her too.
    const room = await admin<{ id: string }>('room/room', { name: `Semanal ${tag}`, type: 'meeting' })
    for (const u of [ana, bia]) await admin(`room/room/${room.id}/member`, { nick: u.nick })
    const inRoom = await join(ana.call, 'room', room.id)
    const other = await join(bia.call, 'room', room.id)
    seen = inRoom.events.length
    inRoom.send({ type: 'offer', to: bia.nick, sdp: VIDEO })
    expect((await inRoom.next('error', (e) => e.cause === 'tx_weekly', seen)).cause).toBe('tx_weekly')
    other.send({ type: 'offer', to: ana.nick, sdp: AV })
    expect((await inRoom.next('offer')).from).toBe(bia.nick)
    expect(other.events.some((e) => e.type === 'offer')).toBe(false)
    inRoom.close()
    other.close()
  })

  it("a console room's room_tx_duration stops a transmission, and room_tx_interval must pass before the next", async () => {
    const { admin, users } = await childRealm({ room_tx_duration: 2, room_tx_interval: 3 }, ['ana', 'bia'])
    const { ana, bia } = users
    const room = await admin<{ id: string }>('room/room', { name: `Duração ${tag}`, type: 'meeting' })
    for (const u of [ana, bia]) await admin(`room/room/${room.id}/member`, { nick: u.nick })
    const a = await join(ana.call, 'room', room.id)
    const b = await join(bia.call, 'room', room.id)
    a.send({ type: 'offer', to: bia.nick, sdp: AV })
    await b.next('offer')
    const stopped = await a.next('tx_stopped')
    expect(stopped.cause).toBe('tx_duration')
    expect(stopped.retry_after_ms).toBeGreaterThan(0)
    expect(stopped.retry_after_ms).toBeLessThanOrEqual(3_000)
    const seen = a.events.length
    a.send({ type: 'offer', to: bia.nick, sdp: AV })
    expect((await a.next('error', (e) => e.cause === 'tx_duration', seen)).retry_after_ms).toBeLessThanOrEqual(3_000)
    // Once the interval has passed she transmits again (each try is one offer; the refused ones reach nobody).
    const offers = () => b.events.filter((e) => e.type === 'offer').length
    const before = offers()
    await expect
      .poll(() => {
        a.send({ type: 'offer', to: bia.nick, sdp: AV })
        return offers()
      })
      .toBeGreaterThan(before)
    a.close()
    b.close()
  })

  it("a muted participant's audio is refused until unmuted; the mute also stops the audio they were sending", async () => {
    const ANA = `ana-lim-${tag}`
    const BIA = `bia-lim-${tag}`
    for (const nick of [ANA, BIA]) await root('POST', 'mas/user', { nick, name: nick, password: PASSWORD, roles: [] })
    const ana = await realmApi('demo', ANA, PASSWORD)
    const bia = await realmApi('demo', BIA, PASSWORD)
    const made = await root<{ id: string }>('POST', 'room/room', { name: `Mudo ${tag}`, type: 'meeting' })
    for (const nick of [ANA, BIA]) await root('POST', `room/room/${made.id}/member`, { nick })
    const ticket = (as: Api) => (path: string) => as<{ ticket: string }>('POST', path)
    const a = await join(ticket(ana), 'room', made.id)
    const b = await join(ticket(bia), 'room', made.id)
    const mod = await join(ticket(root), 'room', made.id)
    const [anaNick, biaNick] = [`${ANA}@demo`, `${BIA}@demo`]

    a.send({ type: 'offer', to: biaNick, sdp: AV })
    await b.next('offer')
    mod.send({ type: 'mod', action: 'mute', nick: anaNick })
    const muted = await mod.next('member', (e) => e.member.nick === anaNick && e.member.muted && e.member.media?.audio === false)
    expect(muted.member.media).toEqual({ audio: false, video: true })
    const seen = a.events.length
    a.send({ type: 'offer', to: biaNick, sdp: AV })
    expect((await a.next('error', (e) => e.cause === 'muted', seen)).cause).toBe('muted')
    // Video alone goes through.
    const offers = () => b.events.filter((e) => e.type === 'offer').length
    let before = offers()
    a.send({ type: 'offer', to: biaNick, sdp: VIDEO })
    await expect.poll(offers).toBe(before + 1)
    mod.send({ type: 'mod', action: 'unmute', nick: anaNick })
    await mod.next('member', (e) => e.member.nick === anaNick && !e.member.muted)
    before = offers()
    a.send({ type: 'offer', to: biaNick, sdp: AV })
    await expect.poll(offers).toBe(before + 1)
    expect((await mod.next('member', (e) => e.member.nick === anaNick && e.member.media?.audio === true)).member.media).toEqual({ audio: true, video: true })
    for (const c of [a, b, mod]) c.close()
  })

  it('"mute collaborators": only the owner and those invited to speak send audio; switching it on stops the others’ audio', async () => {
    const OP = `op-lim-${tag}`
    await root('POST', 'mas/user', { nick: OP, name: OP, password: PASSWORD, roles: [] })
    const op = await realmApi('demo', OP, PASSWORD)
    const opNick = `${OP}@demo`
    const ticket = (as: Api) => (path: string) => as<{ ticket: string }>('POST', path)
    const made = await root<{ id: string }>('POST', 'channel', {
      name: `Colaboradores ${tag}`,
      modes: { mute_collaborators: true },
      members: [
        { nick: 'root', permission: 'owner' },
        { nick: OP, permission: 'operator' },
      ],
    })
    const owner = await join(ticket(root), 'channel', made.id)
    const o = await join(ticket(op), 'channel', made.id)
    expect((await o.next('welcome')).settings.mute_collaborators).toBe(true)
    o.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    expect((await o.next('error', (e) => e.cause === 'collaborators_muted')).cause).toBe('collaborators_muted')
    const offers = () => owner.events.filter((e) => e.type === 'offer').length
    let before = offers()
    o.send({ type: 'offer', to: 'root@demo', sdp: VIDEO })
    await expect.poll(offers).toBe(before + 1)
    // The owner speaks; the operator speaks once invited.
    owner.send({ type: 'offer', to: opNick, sdp: AV })
    expect((await o.next('offer')).from).toBe('root@demo')
    owner.send({ type: 'speak', nick: opNick, invite: true })
    await o.next('speak')
    before = offers()
    o.send({ type: 'offer', to: 'root@demo', sdp: AV })
    await expect.poll(offers).toBe(before + 1)
    await owner.next('member', (e) => e.member.nick === opNick && e.member.media?.audio === true)
    // Revoked, under the mode: the operator still transmits video, no longer audio.
    owner.send({ type: 'speak', nick: opNick, invite: false })
    const revoked = await owner.next('member', (e) => e.member.nick === opNick && !e.member.speaker && e.member.media?.audio === false)
    expect(revoked.member.media).toEqual({ audio: false, video: true })
    // Switched off for the session, the operator's audio goes through; switched on again, it stops.
    owner.send({ type: 'settings', mute_collaborators: false })
    await o.next('settings', (e) => !e.settings.mute_collaborators)
    before = offers()
    let mark = owner.events.length
    o.send({ type: 'offer', to: 'root@demo', sdp: AV })
    await expect.poll(offers).toBe(before + 1)
    await owner.next('member', (e) => e.member.nick === opNick && e.member.media?.audio === true, mark)
    mark = owner.events.length
    owner.send({ type: 'settings', mute_collaborators: true })
    await owner.next('member', (e) => e.member.nick === opNick && e.member.media?.audio === false, mark)
    owner.close()
    o.close()
  })
})
