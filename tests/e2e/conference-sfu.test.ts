import { beforeAll, describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { TRANSMITTERS_MAX } from '../../party/channel-protocol'
import { fileBrowserFlags, open, openPage, realmApi, url } from './browser'
import { Client } from './live-client'

/**
 * The SFU switch (issue 20), with real WebSocket clients against `partykit dev`, whose SFU is the local server speaking
 * Cloudflare Realtime's API (tests/support/calls-api.ts, started by the e2e global setup): a meeting room transmits over
 * the mesh up to TRANSMITTERS_MAX; the next transmitter moves the room to the SFU for the rest of the live session
 * (everyone is told, the mesh's transmissions stop); then transmitters publish with `sfu_push` (the party calls the SFU
 * for them: the answer comes back, more than the mesh's transmitters fit), watchers pull with `sfu_pull` and answer the
 * SFU's offer with `sfu_renegotiate`, and the party's rules hold there too: a muted participant's audio track is closed
 * on the SFU and their pushes with audio refused. The next live session starts over the mesh. In Chromium (fake devices),
 * the participant view whose transmission moves the room carries on through the SFU: the party takes its real offer.
 */

fileBrowserFlags('--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--allow-loopback-in-peer-connection')
const pt = catalogues['pt-BR']

const tag = Date.now().toString(36)
const PASSWORD = 'senha-do-sfu-1'
type Api = Awaited<ReturnType<typeof realmApi>>
let root: Api
const users: Api[] = []
const nicks: string[] = []

const sdp = (sections: { kind: 'audio' | 'video'; mid: string; dir: string }[]) =>
  [
    'v=0',
    'o=- 4611731400430051336 2 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    ...sections.flatMap((s) => [
      s.kind === 'audio' ? 'm=audio 9 UDP/TLS/RTP/SAVPF 111' : 'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'c=IN IP4 0.0.0.0',
      `a=mid:${s.mid}`,
      `a=${s.dir}`,
    ]),
  ].join('\r\n') + '\r\n'
const AV = sdp([
  { kind: 'audio', mid: '0', dir: 'sendrecv' },
  { kind: 'video', mid: '1', dir: 'sendrecv' },
])
const WATCH = sdp([
  { kind: 'audio', mid: '0', dir: 'recvonly' },
  { kind: 'video', mid: '1', dir: 'recvonly' },
])
const PUSH = sdp([
  { kind: 'audio', mid: '0', dir: 'sendonly' },
  { kind: 'video', mid: '1', dir: 'sendonly' },
])
const PUSH_TRACKS = [
  { mid: '0', kind: 'audio' },
  { mid: '1', kind: 'video' },
]
const ANSWER = sdp([{ kind: 'video', mid: '100', dir: 'recvonly' }])

const join = async (as: Api, id: string) => {
  const c = await Client.open(id, (await as<{ ticket: string }>('POST', `room/live/${id}/ticket`)).ticket, undefined, 'room')
  await c.next('welcome')
  return c
}
const nickOf = (c: Client) => {
  const w = c.events.find((e) => e.type === 'welcome')
  if (w?.type !== 'welcome') throw new Error('not welcomed')
  return w.you.nick
}

describe('the SFU switch', () => {
  beforeAll(async () => {
    root = await realmApi('demo', 'root')
    for (let i = 0; i <= TRANSMITTERS_MAX; i++) {
      const nick = `sfu-${tag}-${i}`
      await root('POST', 'mas/user', { nick, name: `Transmissor ${i}`, password: PASSWORD, roles: [] })
      nicks.push(nick)
      users.push(await realmApi('demo', nick, PASSWORD))
    }
  })

  it('a meeting above the mesh size moves to the SFU: the party pushes and pulls the tracks there and enforces the mute on it', async () => {
    const room = await root<{ id: string }>('POST', 'room/room', { name: `SFU ${tag}`, type: 'meeting' })
    for (const nick of nicks) await root('POST', `room/room/${room.id}/member`, { nick })
    const host = await join(root, room.id)
    const welcome = host.events.find((e) => e.type === 'welcome')
    expect(welcome?.type === 'welcome' && welcome.settings.media_path).toBe('mesh')
    const tx: Client[] = []
    for (const as of users) tx.push(await join(as, room.id))
    const hostNick = nickOf(host)

    // The mesh holds TRANSMITTERS_MAX transmitters.
    for (const c of tx.slice(0, TRANSMITTERS_MAX)) {
      c.send({ type: 'offer', to: hostNick, sdp: AV })
      await host.next('offer', (e) => e.from === nickOf(c))
    }
    // The next one moves the room to the SFU: it is told to transmit there, everyone sees the new path, and the mesh's
    // transmissions stop (presence drops their media).
    const last = tx[TRANSMITTERS_MAX]
    last.send({ type: 'offer', to: hostNick, sdp: AV })
    expect((await last.next('error', (e) => e.cause === 'sfu_required')).cause).toBe('sfu_required')
    for (const c of [host, ...tx]) await c.next('settings', (e) => e.settings.media_path === 'sfu')
    for (const c of tx.slice(0, TRANSMITTERS_MAX)) await host.next('member', (e) => e.member.nick === nickOf(c) && e.member.media === undefined)
    expect(host.events.some((e) => e.type === 'offer' && e.from === nickOf(last))).toBe(false)

    // Over the mesh nothing is sent any more (a receive-only answer still passes: it sends nothing).
    let seen = tx[0].events.length
    tx[0].send({ type: 'offer', to: hostNick, sdp: AV })
    await tx[0].next('error', (e) => e.cause === 'sfu_required', seen)
    host.send({ type: 'answer', to: nickOf(tx[0]), sdp: WATCH })
    await tx[0].next('answer', (e) => e.from === hostNick, seen)

    // Publishing: the tracks named must be what the description sends; then the SFU's answer comes back.
    seen = last.events.length
    last.send({ type: 'sfu_push', sdp: sdp([{ kind: 'audio', mid: '0', dir: 'sendonly' }]), tracks: PUSH_TRACKS })
    await last.next('error', (e) => e.cause === 'invalid_message', seen)
    last.send({ type: 'sfu_push', sdp: PUSH, tracks: PUSH_TRACKS })
    const pushed = await last.next('sfu_pushed', () => true, seen)
    expect(pushed.sdp.startsWith('v=0')).toBe(true)
    expect(pushed.tracks).toEqual(PUSH_TRACKS)
    await host.next('member', (e) => e.member.nick === nickOf(last) && e.member.media?.audio === true && e.member.media.video === true)
    // More transmitters than the mesh holds fit through the SFU.
    for (const c of tx.slice(0, TRANSMITTERS_MAX)) {
      const from = c.events.length
      c.send({ type: 'sfu_push', sdp: PUSH, tracks: PUSH_TRACKS })
      await c.next('sfu_pushed', () => true, from)
    }

    // A watcher pulls a transmitter's tracks: the SFU offers them (which mid carries what), the watcher answers.
    seen = host.events.length
    host.send({ type: 'sfu_pull', from: nickOf(last) })
    const offer = await host.next('sfu_offer', () => true, seen)
    expect(offer.from).toBe(nickOf(last))
    expect(offer.tracks.map((t) => t.kind).sort()).toEqual(['audio', 'video'])
    host.send({ type: 'sfu_renegotiate', sdp: ANSWER })
    // The SFU took that answer: a second one finds nothing to renegotiate, and the party says the SFU refused it.
    host.send({ type: 'sfu_renegotiate', sdp: ANSWER })
    await host.next('error', (e) => e.cause === 'unavailable', seen)
    expect(host.events.slice(seen).filter((e) => e.type === 'error')).toHaveLength(1)

    // A moderator's mute closes the audio track on the SFU: a new pull brings the video only; pushes with audio are refused.
    seen = host.events.length
    host.send({ type: 'mod', action: 'mute', nick: nickOf(last) })
    await host.next('member', (e) => e.member.nick === nickOf(last) && e.member.muted && e.member.media?.audio === false, seen)
    host.send({ type: 'sfu_pull', from: nickOf(last) })
    expect((await host.next('sfu_offer', () => true, seen)).tracks.map((t) => t.kind)).toEqual(['video'])
    const lastSeen = last.events.length
    last.send({ type: 'sfu_push', sdp: PUSH, tracks: PUSH_TRACKS })
    await last.next('error', (e) => e.cause === 'muted', lastSeen)
    // Nobody pulls their own tracks.
    host.send({ type: 'sfu_pull', from: hostNick })
    await host.next('error', (e) => e.cause === 'invalid_message', seen)

    // Everyone leaves: the session ends (LIVE_END_GRACE_MS, 3 s here, after the last one left; each look in between
    // keeps it alive, hence looks further apart than that), and the next one starts over the mesh.
    for (const c of [host, ...tx]) c.close()
    await expect
      .poll(
        async () => {
          const again = await join(root, room.id)
          const w = again.events.find((e) => e.type === 'welcome')
          again.close()
          return w?.type === 'welcome' ? w.settings.media_path : null
        },
        { timeout: 60_000, interval: 5_000 },
      )
      .toBe('mesh')
  })

  it('a room on the mesh does not use the SFU: pushing and pulling there are refused', async () => {
    const room = await root<{ id: string }>('POST', 'room/room', { name: `Malha ${tag}`, type: 'meeting' })
    await root('POST', `room/room/${room.id}/member`, { nick: nicks[0] })
    const host = await join(root, room.id)
    const a = await join(users[0], room.id)
    a.send({ type: 'sfu_push', sdp: PUSH, tracks: PUSH_TRACKS })
    await a.next('error', (e) => e.cause === 'mesh_required')
    host.send({ type: 'sfu_pull', from: nickOf(a) })
    await host.next('error', (e) => e.cause === 'mesh_required')
    host.close()
    a.close()
  })

  it('in the browser: the view whose transmission moves the room to the SFU publishes there (the party takes its offer)', async () => {
    const room = await root<{ id: string }>('POST', 'room/room', { name: `SFU navegador ${tag}`, type: 'meeting' })
    for (const nick of nicks) await root('POST', `room/room/${room.id}/member`, { nick })
    const host = await join(root, room.id)
    const hostNick = nickOf(host)
    // The mesh is full: TRANSMITTERS_MAX clients transmit.
    const tx: Client[] = []
    for (const as of users.slice(0, TRANSMITTERS_MAX)) {
      const c = await join(as, room.id)
      c.send({ type: 'offer', to: hostNick, sdp: AV })
      await host.next('offer', (e) => e.from === nickOf(c))
      tx.push(c)
    }
    // The last user transmits from the participant view.
    const { page } = await openPage()
    await open(page, url('demo.localhost', `/live/room/${room.id}`))
    await page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill(nicks[TRANSMITTERS_MAX])
    await page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
    await page.waitForSelector('[data-live-status="open"]', { timeout: 60_000 })
    const joined = await host.next('joined', (e) => e.member.name === `Transmissor ${TRANSMITTERS_MAX}`)
    await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
    await page.getByRole('button', { name: pt['live.media.transmit'] }).click({ timeout: 60_000 })
    // Its mesh offer moves the room, and its transmission goes on through the SFU: presence shows it sending audio and
    // video again once the party pushed its real offer's tracks there (the local SFU's answer is not media: applying
    // it fails in the browser, which is why media through the SFU runs in production only).
    await host.next('settings', (e) => e.settings.media_path === 'sfu')
    const switched = host.events.findIndex((e) => e.type === 'settings' && e.settings.media_path === 'sfu')
    await host.next('member', (e) => e.member.nick === joined.member.nick && e.member.media?.audio === true && e.member.media.video === true, switched)
    await page.getByText(pt['live.media.on_air']).waitFor()
    for (const c of [host, ...tx]) c.close()
  })
})
