import { beforeAll, describe, expect, it } from 'vitest'
import { bitrateCap, sentMedia } from '../../party/channel-protocol'
import { realmApi, url } from './browser'
import { Client } from './live-client'

/**
 * Conference signalling (issue 20) in the live parties, with real WebSocket clients against `partykit dev`: offers,
 * answers and ICE candidates relayed only between admitted participants, who may transmit (lecture: speakers and the
 * invited; meeting: everyone up to the cap), and the modes (audio-only refuses video, text-only refuses both).
 */

const tag = Date.now().toString(36)
let n = 0
type Api = Awaited<ReturnType<typeof realmApi>>
let root: Api
const PASSWORD = 'senha-da-conferencia-1'
const ANA = `ana-conf-${tag}`
const BIA = `bia-conf-${tag}`
let ana: Api
let bia: Api

/** A session description sending (`sendrecv`) or only receiving (`recvonly`) audio and video, or without one of them. */
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
const WATCH = sdp('recvonly', 'recvonly')
const candidate = { candidate: 'candidate:1 1 udp 2122260223 192.168.0.2 54321 typ host', sdpMid: '0', sdpMLineIndex: 0 }

async function makeRoom(type: 'lecture' | 'meeting', members: string[]): Promise<string> {
  const made = await root<{ id: string }>('POST', 'room/room', { name: `Conferência ${tag} ${++n}`, type })
  for (const nick of members) await root('POST', `room/room/${made.id}/member`, { nick })
  return made.id
}
const joinRoom = async (as: Api, id: string) => {
  const c = await Client.open(id, (await as<{ ticket: string }>('POST', `room/live/${id}/ticket`)).ticket, undefined, 'room')
  await c.next('welcome')
  return c
}
async function makeChannel(modes: Record<string, unknown>, members: { nick: string; permission: string }[], extra: Record<string, unknown> = {}) {
  const made = await root<{ id: string }>('POST', 'channel', {
    name: `Conferência ${tag} ${++n}`,
    modes,
    members: [{ nick: 'root', permission: 'owner' }, ...members],
    ...extra,
  })
  return made.id
}
const joinChannel = async (as: Api, id: string) => {
  const c = await Client.open(id, (await as<{ ticket: string }>('POST', `channel/live/${id}/ticket`)).ticket)
  await c.next('welcome')
  return c
}

describe('conference signalling', () => {
  beforeAll(async () => {
    root = await realmApi('demo', 'root')
    for (const nick of [ANA, BIA]) await root('POST', 'mas/user', { nick, name: nick, password: PASSWORD, roles: [] })
    ana = await realmApi('demo', ANA, PASSWORD)
    bia = await realmApi('demo', BIA, PASSWORD)
  })

  it('reads what a description sends from its SDP, not from a claim', () => {
    expect(sentMedia(AV)).toEqual({ audio: true, video: true })
    expect(sentMedia(AUDIO)).toEqual({ audio: true, video: false })
    expect(sentMedia(WATCH)).toEqual({ audio: false, video: false })
    expect(sentMedia(sdp('inactive', 'sendonly'))).toEqual({ audio: false, video: true })
    // A rejected section (port 0) sends nothing; a session-level direction applies to sections without their own.
    expect(sentMedia(AV.replace('m=video 9', 'm=video 0'))).toEqual({ audio: true, video: false })
    expect(sentMedia(['v=0', 'a=recvonly', 'm=audio 9 RTP/AVP 0', ''].join('\r\n'))).toEqual({ audio: false, video: false })
  })

  it('a meeting relays offers, answers and ICE candidates to the addressed participant only; everyone may transmit', async () => {
    const id = await makeRoom('meeting', [ANA, BIA])
    const a = await joinRoom(ana, id)
    const b = await joinRoom(bia, id)
    const admin = await joinRoom(root, id)
    const [anaNick, biaNick] = [`${ANA}@demo`, `${BIA}@demo`]

    a.send({ type: 'offer', to: biaNick, sdp: AV })
    expect(await b.next('offer')).toEqual({ type: 'offer', from: anaNick, sdp: AV })
    // Presence shows Ana transmitting (the party read it from her offer).
    expect((await admin.next('member', (e) => e.member.nick === anaNick && e.member.media !== undefined)).member.media).toEqual({ audio: true, video: true })
    b.send({ type: 'answer', to: anaNick, sdp: AV })
    expect(await a.next('answer')).toEqual({ type: 'answer', from: biaNick, sdp: AV })
    a.send({ type: 'ice', to: biaNick, candidate })
    expect(await b.next('ice')).toEqual({ type: 'ice', from: anaNick, candidate })
    // Nothing addressed to Bia reached the admin.
    expect(admin.events.some((e) => e.type === 'offer' || e.type === 'answer' || e.type === 'ice')).toBe(false)

    // Refusals, each with its cause: someone not here, oneself, a malformed description.
    a.send({ type: 'offer', to: 'ninguem@demo', sdp: AV })
    expect((await a.next('error', (e) => e.cause === 'not_present')).cause).toBe('not_present')
    a.send({ type: 'offer', to: anaNick, sdp: AV })
    expect((await a.next('error', (e) => e.cause === 'invalid_message')).cause).toBe('invalid_message')
    const seen = a.events.length
    a.send({ type: 'offer', to: biaNick, sdp: 'not a description' })
    expect((await a.next('error', (e) => e.cause === 'invalid_message', seen)).message).toContain('v=0')

    // Ana turns her camera off, then stops: presence follows; widening takes a new offer.
    a.send({ type: 'media', audio: true, video: false })
    expect((await admin.next('member', (e) => e.member.nick === anaNick && e.member.media?.video === false)).member.media).toEqual({
      audio: true,
      video: false,
    })
    a.send({ type: 'media', audio: false, video: false })
    await admin.next('member', (e) => e.member.nick === anaNick && e.member.media === undefined)
    for (const c of [a, b, admin]) c.close()
  })

  it('signalling from or to a client the party has not admitted is refused', async () => {
    const id = await makeChannel({}, [], { password: 'segredo' })
    const res = await fetch(url('localhost', `/api/channel/live/${id}/guest`), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-realm': 'demo' },
      body: JSON.stringify({ name: 'Visitante' }),
    })
    const { ticket, nick } = (await res.json()) as { ticket: string; nick: string }
    const guest = await Client.open(id, ticket)
    await guest.next('password_required')
    const owner = await joinChannel(root, id)
    // The guest has not given the password: not admitted, so it signals no one and no one signals it.
    guest.send({ type: 'offer', to: 'root@demo', sdp: WATCH })
    expect((await guest.next('error', (e) => e.cause === 'password_required')).cause).toBe('password_required')
    owner.send({ type: 'offer', to: nick, sdp: AV })
    expect((await owner.next('error', (e) => e.cause === 'not_present')).cause).toBe('not_present')
    expect(owner.events.some((e) => e.type === 'offer')).toBe(false)
    expect(guest.events.some((e) => e.type === 'offer')).toBe(false)
    guest.close()
    owner.close()
  })

  it("a lecture refuses an audience member's offer until a moderator invites them to speak; revoking stops it", async () => {
    const id = await makeRoom('lecture', [ANA])
    const a = await joinRoom(ana, id)
    const admin = await joinRoom(root, id)
    const anaNick = `${ANA}@demo`

    a.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    expect((await a.next('error', (e) => e.cause === 'not_speaker')).cause).toBe('not_speaker')
    // Watching needs no invitation: a receive-only offer goes through.
    a.send({ type: 'offer', to: 'root@demo', sdp: WATCH })
    expect((await admin.next('offer')).from).toBe(anaNick)
    // The lecturer transmits.
    admin.send({ type: 'offer', to: anaNick, sdp: AV })
    expect((await a.next('offer')).from).toBe('root@demo')

    // Raise hand → the moderator invites to speak (a participant may not invite).
    a.send({ type: 'speak', nick: anaNick, invite: true })
    expect((await a.next('error', (e) => e.cause === 'forbidden')).cause).toBe('forbidden')
    a.send({ type: 'hand', raised: true })
    await admin.next('member', (e) => e.member.nick === anaNick && e.member.hand)
    admin.send({ type: 'speak', nick: anaNick, invite: true })
    expect(await a.next('speak')).toEqual({ type: 'speak', invite: true, by: 'root@demo' })
    const invited = await admin.next('member', (e) => e.member.nick === anaNick && e.member.speaker === true)
    expect(invited.member.hand).toBe(false)
    const before = admin.events.filter((e) => e.type === 'offer').length
    a.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    await expect.poll(() => admin.events.filter((e) => e.type === 'offer').length).toBe(before + 1)

    // Revoked: told to stop, no longer shown transmitting, and refused again.
    admin.send({ type: 'speak', nick: anaNick, invite: false })
    expect(await a.next('speak', (e) => !e.invite)).toEqual({ type: 'speak', invite: false, by: 'root@demo' })
    await admin.next('member', (e) => e.member.nick === anaNick && !e.member.speaker && e.member.media === undefined)
    const errors = a.events.length
    a.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    expect((await a.next('error', (e) => e.cause === 'not_speaker', errors)).cause).toBe('not_speaker')
    a.close()
    admin.close()
  })

  it('audio-only refuses video, text-only refuses audio and video, and the transmissions limit caps transmitters', async () => {
    const audioOnly = await makeChannel({ audio_only: true }, [{ nick: ANA, permission: 'operator' }])
    let owner = await joinChannel(root, audioOnly)
    let op = await joinChannel(ana, audioOnly)
    owner.send({ type: 'offer', to: `${ANA}@demo`, sdp: AV })
    expect((await owner.next('error', (e) => e.cause === 'audio_only')).cause).toBe('audio_only')
    owner.send({ type: 'offer', to: `${ANA}@demo`, sdp: AUDIO })
    expect((await op.next('offer')).sdp).toBe(AUDIO)
    owner.close()
    op.close()

    const textOnly = await makeChannel({ text_only: true }, [{ nick: ANA, permission: 'operator' }])
    owner = await joinChannel(root, textOnly)
    op = await joinChannel(ana, textOnly)
    owner.send({ type: 'offer', to: `${ANA}@demo`, sdp: AUDIO })
    expect((await owner.next('error', (e) => e.cause === 'text_only')).cause).toBe('text_only')
    const seen = owner.events.length
    owner.send({ type: 'offer', to: `${ANA}@demo`, sdp: sdp(null, 'sendonly') })
    expect((await owner.next('error', (e) => e.cause === 'text_only', seen)).cause).toBe('text_only')
    expect(op.events.some((e) => e.type === 'offer')).toBe(false)
    owner.close()
    op.close()

    const capped = await makeChannel({ transmissions_limit: 1 }, [{ nick: ANA, permission: 'operator' }])
    owner = await joinChannel(root, capped)
    op = await joinChannel(ana, capped)
    owner.send({ type: 'offer', to: `${ANA}@demo`, sdp: AV })
    await op.next('offer')
    op.send({ type: 'offer', to: 'root@demo', sdp: AUDIO })
    expect((await op.next('error', (e) => e.cause === 'transmitters_full')).cause).toBe('transmitters_full')
    // Its answer may still receive only.
    op.send({ type: 'answer', to: 'root@demo', sdp: WATCH })
    expect((await owner.next('answer')).from).toBe(`${ANA}@demo`)
    owner.close()
    op.close()
  })

  it("the welcome names the cap on every sender: the channel's max bitrate when lower than the realm's, else the realm's", async () => {
    expect(bitrateCap(300, 2500)).toBe(300)
    expect(bitrateCap(4000, 2500)).toBe(2500)
    expect(bitrateCap(0, 2500)).toBe(2500)
    expect(bitrateCap(0, 0)).toBe(0)
    const realmMax = (await root<{ max_bitrate_kbps: number }>('GET', 'mas/realm/demo')).max_bitrate_kbps
    expect(realmMax).toBeGreaterThan(100)
    const cases: [Record<string, unknown>, number][] = [
      [{ max_bitrate_kbps: realmMax - 100 }, realmMax - 100],
      [{ max_bitrate_kbps: realmMax + 100 }, realmMax],
      [{}, realmMax],
    ]
    for (const [modes, want] of cases) {
      const id = await makeChannel(modes, [])
      const c = await Client.open(id, (await root<{ ticket: string }>('POST', `channel/live/${id}/ticket`)).ticket)
      expect((await c.next('welcome')).settings.max_bitrate_kbps).toBe(want)
      c.close()
    }
  })
})
