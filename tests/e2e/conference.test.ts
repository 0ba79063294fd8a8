import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { fileBrowserFlags, open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * Conferences with real audio and video (issue 20), in Chromium with fake media devices: a room editor in the
 * console's live view and a student member in the participant view of one meeting room each turn on microphone and
 * camera, preview, transmit, and receive the other's audio and video through the full mesh (the peer connections'
 * statistics show bytes received); every sender is capped at the realm's maximum bitrate; the moderator mutes the
 * student (her microphone stops being sent and she is told) and then stops her transmission.
 */

fileBrowserFlags(
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--autoplay-policy=no-user-gesture-required',
  // A CI machine may have only a loopback interface, which Chromium leaves out of ICE unless told.
  '--allow-loopback-in-peer-connection',
)

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

const peerConnections = (page: Page) => page.evaluate(() => (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.length)

/** Keeps every RTCPeerConnection the page makes (the product holds them privately) so the test can read statistics. */
const warnings = new WeakMap<Page, string[]>()

async function watchPeerConnections(page: Page) {
  const seen: string[] = []
  warnings.set(page, seen)
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') seen.push(`${m.type()}: ${m.text()}`.slice(0, 200))
  })
  await page.addInitScript(() => {
    const Original = window.RTCPeerConnection
    const all: RTCPeerConnection[] = []
    ;(window as unknown as { __pcs: RTCPeerConnection[] }).__pcs = all
    window.RTCPeerConnection = class extends Original {
      constructor(config?: RTCConfiguration) {
        super(config)
        all.push(this)
      }
    }
    // And its WebSockets, so the test can drop the connection to the party as a failing network would.
    const OriginalSocket = window.WebSocket
    const sockets: WebSocket[] = []
    ;(window as unknown as { __sockets: WebSocket[] }).__sockets = sockets
    // And can lose the next `__dropOffers` offers the page sends, as a party does for a peer between two sockets.
    window.WebSocket = class extends OriginalSocket {
      constructor(address: string | URL, protocols?: string | string[]) {
        super(address, protocols)
        sockets.push(this)
      }
      send(data: string | ArrayBufferLike | Blob | ArrayBufferView) {
        const w = window as unknown as { __dropOffers?: number }
        if (w.__dropOffers && typeof data === 'string' && data.startsWith('{"type":"offer"')) {
          w.__dropOffers--
          return
        }
        super.send(data)
      }
    }
  })
}

/** Bytes received and sent per kind over the page's open peer connections, and its senders' bitrate caps. */
function media(page: Page) {
  return page.evaluate(async () => {
    const out = { inAudio: 0, inVideo: 0, sendingAudio: 0, sendingVideo: 0, caps: [] as (number | null)[] }
    for (const pc of (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs) {
      if (pc.connectionState === 'closed') continue
      ;(await pc.getStats()).forEach((r: { type: string; kind?: string; bytesReceived?: number }) => {
        if (r.type !== 'inbound-rtp') return
        if (r.kind === 'audio') out.inAudio += r.bytesReceived ?? 0
        if (r.kind === 'video') out.inVideo += r.bytesReceived ?? 0
      })
      for (const t of pc.getTransceivers()) {
        if (!t.sender.track || (t.direction !== 'sendrecv' && t.direction !== 'sendonly')) continue
        if (t.sender.track.kind === 'audio') out.sendingAudio++
        else out.sendingVideo++
        out.caps.push(t.sender.getParameters().encodings?.[0]?.maxBitrate ?? null)
      }
    }
    return out
  })
}

/** Each open connection's states, for the failure message: which side is stuck, and where. */
function connectionStates(page: Page) {
  return page.evaluate(() =>
    (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.map((pc) => `${pc.signalingState}/${pc.connectionState}/${pc.iceConnectionState}`),
  )
}

/** Waits until the page receives both audio and video, or fails naming the page and its connections' states. */
async function expectReceiving(name: string, page: Page, timeout: number) {
  const deadline = Date.now() + timeout
  let last = await media(page)
  while (!(last.inAudio > 0 && last.inVideo > 0) && Date.now() < deadline) {
    await page.waitForTimeout(250)
    last = await media(page)
  }
  if (!(last.inAudio > 0 && last.inVideo > 0))
    throw new Error(
      `${name} receives audio ${last.inAudio} B, video ${last.inVideo} B; connections: ${(await connectionStates(page)).join(', ')}; ` +
        `console: ${(warnings.get(page) ?? []).slice(-8).join(' | ')}`,
    )
}

async function turnOnAndTransmit(page: Page) {
  await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
  // The preview comes first; transmitting is a second, deliberate step.
  await page.locator('.live-tile-self video').waitFor()
  await page.getByLabel(pt['live.media.microphone']).waitFor()
  await page.getByRole('button', { name: pt['live.media.transmit'] }).click()
  await page.getByText(pt['live.media.on_air']).waitFor()
}

describe('conference', () => {
  it('two participants of a meeting room see and hear each other; the moderator mutes one and stops her transmission, which she turns on again herself', async () => {
    const root = await realmApi('demo', 'root')
    const nick = `aluna-conf-${tag}`
    const password = 'senha-da-aluna-1'
    await root('POST', 'mas/user', { nick, name: 'Aluna Conferência', password, roles: [] })
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Reunião ${tag}`, type: 'meeting' })
    await root('POST', `room/room/${room.id}/member`, { nick })

    const op = await signedInPage('root', `/room/live/${room.id}`)
    await watchPeerConnections(op.page)
    await op.page.reload()
    await op.page.waitForSelector('[data-live-status="open"]')

    const st = await openPage()
    await watchPeerConnections(st.page)
    await open(st.page, url('demo.localhost', `/live/room/${room.id}`))
    await st.page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill(nick)
    await st.page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill(password)
    await st.page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
    await st.page.waitForSelector('[data-live-status="open"]')
    await expect.poll(() => op.page.locator('.live-people li').count()).toBe(2)

    await turnOnAndTransmit(op.page)
    await turnOnAndTransmit(st.page)

    // Each side receives the other's audio and video (bytes flow), and shows the other's tile.
    for (const [name, page] of [
      ['moderator', op.page],
      ['student', st.page],
    ] as const) {
      await expectReceiving(name, page, 20_000)
      expect(await page.locator('.live-tiles [data-tile]').count()).toBe(1)
    }
    // Every sender is capped at the realm's maximum bitrate (the room has no channel mode of its own).
    const realmMax = (await root<{ max_bitrate_kbps: number }>('GET', 'mas/realm/demo')).max_bitrate_kbps
    for (const page of [op.page, st.page]) {
      await expect.poll(async () => (await media(page)).caps).toEqual([realmMax * 1000, realmMax * 1000])
    }
    // Her network drops (the party's socket closes): she rejoins the same call on new peer connections, both ways —
    // even though the first offer each side makes then is lost (each is left waiting for an answer that never comes
    // until it offers again).
    const before = await peerConnections(st.page)
    for (const page of [op.page, st.page]) await page.evaluate(() => ((window as unknown as { __dropOffers: number }).__dropOffers = 1))
    await st.page.evaluate(() => {
      for (const ws of (window as unknown as { __sockets: WebSocket[] }).__sockets) if (ws.url.includes('/parties/room/')) ws.close()
    })
    // The socket's own reconnection (a fresh ticket first) takes seconds here; no timing is asserted.
    await expect.poll(() => peerConnections(st.page), { timeout: 45_000 }).toBeGreaterThan(before)
    await st.page.waitForSelector('[data-live-status="open"]')
    for (const [name, page] of [
      ['moderator', op.page],
      ['student', st.page],
    ] as const)
      await expectReceiving(`${name} after the rejoin`, page, 45_000)
    for (const page of [op.page, st.page]) expect(await page.evaluate(() => (window as unknown as { __dropOffers: number }).__dropOffers)).toBe(0)
    expect(await st.page.getByText(pt['live.media.on_air']).count()).toBe(1)

    // Presence shows both transmitting.
    const student = op.page.locator('.live-people li').filter({ hasText: 'Aluna Conferência' })
    await expect.poll(() => student.textContent()).toContain(pt['live.media.transmitting'])

    // The moderator mutes her: her microphone is no longer sent, she is told, everyone sees it off.
    await student.getByRole('button', { name: pt['live.mute'] }).click()
    await st.page.getByText(pt['live.media.muted_by_moderator']).waitFor()
    await expect.poll(async () => (await media(st.page)).sendingAudio).toBe(0)
    expect((await media(st.page)).sendingVideo).toBe(1)
    await expect.poll(() => op.page.locator('.live-tiles li').textContent()).toContain(pt['live.media.mic_off'])

    // Then stops her transmission: her view goes back to the preview, nothing is sent.
    await student.getByRole('button', { name: pt['live.media.stop_for'].replace('{{name}}', 'Aluna Conferência') }).click()
    await st.page.getByRole('button', { name: pt['live.media.transmit'] }).waitFor()
    await expect.poll(async () => (await media(st.page)).sendingVideo).toBe(0)
    await expect.poll(() => student.textContent()).not.toContain(pt['live.media.transmitting'])
    // She is told why (issue 20: the party refuses her offers until she turns transmitting on again herself) …
    await st.page.getByText(pt['live.cause.stopped']).waitFor()
    // (Once her connections settled after the stop: a click while that renegotiation is still in flight was seen once
    // not to restart the transmission — a known limit, see README "Stop a transmission".)
    await expect
      .poll(() =>
        st.page.evaluate(() =>
          (window as unknown as { __pcs: RTCPeerConnection[] }).__pcs.every((pc) => pc.connectionState === 'closed' || pc.signalingState === 'stable'),
        ),
      )
      .toBe(true)
    // … and she does: her "Start transmitting" lifts the stop, she transmits again (her microphone stays muted).
    await st.page.getByRole('button', { name: pt['live.media.transmit'] }).click()
    await expect.poll(() => student.textContent(), { timeout: 20_000 }).toContain(pt['live.media.transmitting'])
    await expect.poll(async () => (await media(st.page)).sendingVideo, { timeout: 20_000 }).toBe(1)

    await op.context.close()
    await st.context.close()
  }, 180_000)
})
