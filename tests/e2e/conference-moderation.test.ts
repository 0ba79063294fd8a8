import { beforeAll, describe, expect, it } from 'vitest'
import { CLOSE_REFUSED } from '../../party/channel-protocol'
import { realmApi } from './browser'
import { Client } from './live-client'

/**
 * Conference moderation (issue 20), enforced by the party, with real WebSocket clients against `partykit dev`: a
 * moderator stops a transmission (the party refuses the participant's offers until they turn it on again themselves),
 * locks the call (nobody new is admitted; moderators and who was present keep their place), and runs live breakouts
 * (assigned participants are told to move to a breakout's party; closing the breakouts moves everyone back).
 */

const tag = Date.now().toString(36)
let n = 0
type Api = Awaited<ReturnType<typeof realmApi>>
let root: Api
const PASSWORD = 'senha-da-moderacao-1'
const ANA = `ana-mod-${tag}`
const BIA = `bia-mod-${tag}`
const CAIO = `caio-mod-${tag}`
let ana: Api
let bia: Api
let caio: Api
const [anaNick, biaNick] = [`${ANA}@demo`, `${BIA}@demo`]

const sdp = (audio: string, video: string) =>
  [
    'v=0',
    'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'm=audio 9 UDP/TLS/RTP/SAVPF 111',
    'c=IN IP4 0.0.0.0',
    `a=${audio}`,
    'a=rtpmap:111 opus/48000/2',
    'm=video 9 UDP/TLS/RTP/SAVPF 96',
    'c=IN IP4 0.0.0.0',
    `a=${video}`,
    'a=rtpmap:96 VP8/90000',
  ].join('\r\n') + '\r\n'
const AV = sdp('sendrecv', 'sendrecv')
const WATCH = sdp('recvonly', 'recvonly')

async function makeRoom(type: 'lecture' | 'meeting', members: string[]): Promise<{ id: string; name: string }> {
  const made = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Moderação ${tag} ${++n}`, type })
  for (const nick of members) await root('POST', `room/room/${made.id}/member`, { nick })
  return made
}
const ticket = async (as: Api, id: string) => (await as<{ ticket: string }>('POST', `room/live/${id}/ticket`)).ticket
const joinRoom = async (as: Api, id: string) => {
  const c = await Client.open(id, await ticket(as, id), undefined, 'room')
  await c.next('welcome')
  return c
}

describe('conference moderation', () => {
  beforeAll(async () => {
    root = await realmApi('demo', 'root')
    for (const nick of [ANA, BIA, CAIO]) await root('POST', 'mas/user', { nick, name: nick, password: PASSWORD, roles: [] })
    ana = await realmApi('demo', ANA, PASSWORD)
    bia = await realmApi('demo', BIA, PASSWORD)
    caio = await realmApi('demo', CAIO, PASSWORD)
  })

  it('a moderator stops a transmission: media off, the participant told why, offers refused until they turn it on themselves', async () => {
    const { id } = await makeRoom('meeting', [ANA, BIA])
    const a = await joinRoom(ana, id)
    const b = await joinRoom(bia, id)
    const admin = await joinRoom(root, id)

    a.send({ type: 'offer', to: biaNick, sdp: AV })
    await b.next('offer')
    await admin.next('member', (e) => e.member.nick === anaNick && e.member.media?.video === true)

    // Only moderators stop someone, and never the owner or themselves.
    b.send({ type: 'mod', action: 'stop', nick: anaNick })
    expect((await b.next('error', (e) => e.cause === 'forbidden')).cause).toBe('forbidden')
    admin.send({ type: 'mod', action: 'stop', nick: anaNick })
    expect(await a.next('tx_stopped')).toMatchObject({ type: 'tx_stopped', cause: 'stopped', by: 'root@demo' })
    await admin.next('member', (e) => e.member.nick === anaNick && e.member.media === undefined)

    // Her client's renegotiation (an automatic re-offer) is refused; a receive-only offer still goes through.
    const seen = a.events.length
    const offers = b.events.filter((e) => e.type === 'offer').length
    a.send({ type: 'offer', to: biaNick, sdp: AV })
    expect((await a.next('error', (e) => e.cause === 'stopped', seen)).message).toContain('moderator')
    a.send({ type: 'offer', to: biaNick, sdp: WATCH })
    await expect.poll(() => b.events.filter((e) => e.type === 'offer').length).toBe(offers + 1)
    expect(b.events.filter((e) => e.type === 'offer').at(-1)).toMatchObject({ from: anaNick, sdp: WATCH })

    // She turns transmitting on again herself: her offers pass and presence shows her transmitting.
    const shown = admin.events.length
    a.send({ type: 'resume' })
    a.send({ type: 'offer', to: biaNick, sdp: AV })
    await expect.poll(() => b.events.filter((e) => e.type === 'offer').length).toBe(offers + 2)
    await admin.next('member', (e) => e.member.nick === anaNick && e.member.media?.audio === true, shown)
    for (const c of [a, b, admin]) c.close()
  })

  it('in a lecture a stop also withdraws the invitation to speak: a new invitation is needed, which lifts the stop', async () => {
    const { id } = await makeRoom('lecture', [ANA])
    const a = await joinRoom(ana, id)
    const admin = await joinRoom(root, id)
    admin.send({ type: 'speak', nick: anaNick, invite: true })
    await a.next('speak', (e) => e.invite)
    a.send({ type: 'offer', to: 'root@demo', sdp: AV })
    await admin.next('offer')

    admin.send({ type: 'mod', action: 'stop', nick: anaNick })
    await a.next('tx_stopped', (e) => e.cause === 'stopped')
    await a.next('speak', (e) => !e.invite)
    await admin.next('member', (e) => e.member.nick === anaNick && !e.member.speaker && e.member.media === undefined)
    // Turning it on herself is not enough in a lecture: she is no longer invited.
    const seen = a.events.length
    a.send({ type: 'resume' })
    a.send({ type: 'offer', to: 'root@demo', sdp: AV })
    expect((await a.next('error', (e) => e.cause === 'not_speaker', seen)).cause).toBe('not_speaker')
    // Invited again, she transmits.
    admin.send({ type: 'speak', nick: anaNick, invite: true })
    await a.next('speak', (e) => e.invite, seen)
    const offers = admin.events.filter((e) => e.type === 'offer').length
    a.send({ type: 'offer', to: 'root@demo', sdp: AV })
    await expect.poll(() => admin.events.filter((e) => e.type === 'offer').length).toBe(offers + 1)
    a.close()
    admin.close()
  })

  it('a locked call admits nobody new (moderators excepted); who was present keeps their place; unlocking admits again', async () => {
    const { id } = await makeRoom('meeting', [ANA, BIA, CAIO])
    const admin = await joinRoom(root, id)
    const a = await joinRoom(ana, id)

    // A participant may not lock.
    a.send({ type: 'lock', locked: true })
    expect((await a.next('error', (e) => e.cause === 'forbidden')).cause).toBe('forbidden')
    admin.send({ type: 'lock', locked: true })
    expect((await a.next('settings', (e) => e.settings.locked)).settings.locked).toBe(true)

    // Bia arrives: refused with a clear event and closed.
    const b = await Client.open(id, await ticket(bia, id), undefined, 'room')
    expect(await b.next('error')).toMatchObject({ cause: 'locked', message: expect.stringContaining('locked') })
    await expect.poll(() => b.closed).toBe(CLOSE_REFUSED)
    expect(b.events.some((e) => e.type === 'welcome')).toBe(false)

    // Ana's network drops: she comes back (she was present when it was locked).
    a.close()
    await admin.next('left', (e) => e.nick === anaNick)
    const again = await joinRoom(ana, id)
    expect(again.events.find((e) => e.type === 'welcome')).toMatchObject({ settings: { locked: true } })

    // Unlocked: Bia is admitted.
    admin.send({ type: 'lock', locked: false })
    await again.next('settings', (e) => !e.settings.locked)
    const b2 = await joinRoom(bia, id)
    expect(b2.events.find((e) => e.type === 'welcome')).toMatchObject({ you: { nick: biaNick } })

    // Locked again: those present now (Bia too) keep their place; Caio, new, is refused.
    admin.send({ type: 'lock', locked: true })
    await b2.next('settings', (e) => e.settings.locked)
    b2.close()
    await admin.next('left', (e) => e.nick === biaNick)
    const b3 = await joinRoom(bia, id)
    b3.close()
    const c = await Client.open(id, await ticket(caio, id), undefined, 'room')
    expect((await c.next('error')).cause).toBe('locked')
    for (const x of [admin, again]) x.close()
  })

  it('live breakouts: assigned participants are told to move, reconnect to the breakout, and come back when they close', async () => {
    const main = await makeRoom('meeting', [ANA, BIA])
    const g1 = await root<{ id: string; name: string }>('POST', `room/room/${main.id}/breakout`, { name: `Grupo A ${tag}` })
    const g2 = await root<{ id: string; name: string }>('POST', `room/room/${main.id}/breakout`, { name: `Grupo B ${tag}` })
    const admin = await joinRoom(root, main.id)
    const a = await joinRoom(ana, main.id)
    const b = await joinRoom(bia, main.id)
    await admin.next('joined', (e) => e.member.nick === biaNick)

    // Refused: a participant assigning, a room that is not an open breakout of this one, someone not here.
    a.send({ type: 'breakouts', assign: { [anaNick]: g1.id } })
    expect((await a.next('error', (e) => e.cause === 'forbidden')).cause).toBe('forbidden')
    admin.send({ type: 'breakouts', assign: { [anaNick]: main.id } })
    expect((await admin.next('error', (e) => e.cause === 'no_breakouts')).cause).toBe('no_breakouts')
    admin.send({ type: 'breakouts', assign: { 'ninguem@demo': g1.id } })
    expect((await admin.next('error', (e) => e.cause === 'not_present')).cause).toBe('not_present')
    expect(a.events.some((e) => e.type === 'move')).toBe(false)

    // Opened: Ana to group A, Bia to group B; each told where, everyone sees the assignment.
    admin.send({ type: 'breakouts', assign: { [anaNick]: g1.id, [biaNick]: g2.id } })
    expect(await a.next('move')).toEqual({ type: 'move', room: g1.id, name: g1.name, reason: 'breakout' })
    expect(await b.next('move')).toEqual({ type: 'move', room: g2.id, name: g2.name, reason: 'breakout' })
    expect((await admin.next('settings', (e) => Object.keys(e.settings.breakouts).length === 2)).settings.breakouts).toEqual({
      [anaNick]: g1.id,
      [biaNick]: g2.id,
    })
    expect(admin.events.some((e) => e.type === 'move')).toBe(false)

    // Their pages reconnect to the breakouts' parties (members of the parent join a breakout).
    a.close()
    b.close()
    const inA = await joinRoom(ana, g1.id)
    expect(inA.events.find((e) => e.type === 'welcome')).toMatchObject({ channel: { id: g1.id, name: g1.name }, settings: { breakouts: {} } })
    const inB = await joinRoom(bia, g2.id)
    // A breakout has no breakouts of its own.
    const visit = await joinRoom(root, g1.id)
    visit.send({ type: 'breakouts', assign: {} })
    expect((await visit.next('error', (e) => e.cause === 'no_breakouts')).cause).toBe('no_breakouts')

    // Ana reloads the main room's link while assigned: the main room sends her on again.
    const reload = await Client.open(main.id, await ticket(ana, main.id), undefined, 'room')
    expect((await reload.next('move')).room).toBe(g1.id)
    reload.close()

    // Reassigned while in group B, Bia is sent on to group A by group B's party (told by the main room's).
    admin.send({ type: 'breakouts', assign: { [anaNick]: g1.id, [biaNick]: g1.id } })
    expect(await inB.next('move')).toEqual({ type: 'move', room: g1.id, name: g1.name, reason: 'breakout' })
    expect(inA.events.some((e) => e.type === 'move')).toBe(false)
    inB.close()
    const inB2 = await joinRoom(bia, g1.id)

    // Closed: everyone in each breakout (the visiting moderator too) is told to go back to the main room.
    admin.send({ type: 'breakouts', assign: {} })
    const back = { type: 'move', room: main.id, name: main.name, reason: 'return' }
    expect(await inA.next('move', (e) => e.reason === 'return')).toEqual(back)
    expect(await inB2.next('move', (e) => e.reason === 'return')).toEqual(back)
    expect(await visit.next('move', (e) => e.reason === 'return')).toEqual(back)
    await admin.next('settings', (e) => Object.keys(e.settings.breakouts).length === 0)
    for (const c of [inA, inB2, visit]) c.close()
    // Back in the main room, nobody is sent anywhere.
    const home = await joinRoom(ana, main.id)
    // (A move would come right after the welcome, before the acknowledgement of anything she sends.)
    home.send({ type: 'chat', id: 'back', text: 'Voltei' })
    await home.next('ack', (e) => e.id === 'back')
    expect(home.events.some((e) => e.type === 'move')).toBe(false)
    for (const c of [home, admin]) c.close()
  })
})
