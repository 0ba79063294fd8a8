import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { fileBrowserFlags, open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * Issue 20's browser test, "join through the shared link". A meeting room: its shared link (`/deeplink?room=…`, shown
 * on the room's screen) leads a student member through "continue in the browser" to the room's participant view,
 * where she signs in; the moderator in the console's live view and she both transmit and receive each other's audio
 * and video. A channel: a student opens the channel's shared link
 * (`/deeplink?channel=…`, the address the channel's edit screen copies), follows its "continue in the browser" way in
 * to the participant view, signs in there and joins the call; the channel's owner is in the console's live view. The
 * channel is a lecture whose `auto voice count` (1) lets the first audience member speak, so both transmit, and each
 * receives the other's audio and video (inbound bytes in `RTCPeerConnection.getStats()`), in Chromium with fake media
 * devices. (tests/e2e/conference.test.ts covers the meeting room reached from its own address.)
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

/** Keeps every RTCPeerConnection the page makes (the product holds them privately) so the test can read statistics. */
async function watchPeerConnections(page: Page) {
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
  })
}

/** Bytes received per kind over the page's open peer connections. */
function received(page: Page) {
  return page.evaluate(async () => {
    const out = { audio: 0, video: 0 }
    for (const pc of (window as unknown as { __pcs?: RTCPeerConnection[] }).__pcs ?? []) {
      if (pc.connectionState === 'closed') continue
      ;(await pc.getStats()).forEach((r: { type: string; kind?: string; bytesReceived?: number }) => {
        if (r.type !== 'inbound-rtp') return
        if (r.kind === 'audio') out.audio += r.bytesReceived ?? 0
        if (r.kind === 'video') out.video += r.bytesReceived ?? 0
      })
    }
    return out
  })
}

async function turnOnAndTransmit(page: Page) {
  await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
  await page.locator('.live-tile-self video').waitFor()
  await page.getByRole('button', { name: pt['live.media.transmit'] }).click()
  await page.getByText(pt['live.media.on_air']).waitFor()
}

/** Transmits on both pages and waits until each receives the other's audio and video, and shows the other's tile. */
async function expectBothWays(op: Page, st: Page) {
  await expect.poll(() => op.locator('.live-people li').count()).toBe(2)
  await turnOnAndTransmit(op)
  await turnOnAndTransmit(st)
  for (const page of [op, st]) {
    await expect
      .poll(
        async () => {
          const r = await received(page)
          return r.audio > 0 && r.video > 0
        },
        { timeout: 60_000, interval: 250 },
      )
      .toBe(true)
    await page.locator('li.live-tile video').first().waitFor()
  }
}

/** The student, on a page of her own: opens `link`, continues in the browser to `path`, and signs in there. */
async function studentThroughLink(link: string, path: string, nick: string, password: string) {
  const st = await openPage()
  await watchPeerConnections(st.page)
  await open(st.page, link)
  await st.page.getByRole('link', { name: pt['deeplink.browser'] }).click()
  await st.page.waitForURL((u) => u.pathname === path)
  await st.page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill(nick)
  await st.page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill(password)
  await st.page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
  await st.page.waitForSelector('[data-live-status="open"]')
  return st.page
}

describe('conference through the shared link', () => {
  it("a student member follows a meeting room's shared link into its call; she and the moderator receive each other's media", async () => {
    const root = await realmApi('demo', 'root')
    const nick = `aluna-sala-${tag}`
    const password = 'senha-da-aluna-3'
    await root('POST', 'mas/user', { nick, name: 'Aluna da Sala', password, roles: [] })
    const room = await root<{ id: string }>('POST', 'room/room', { name: `Reunião pelo link ${tag}`, type: 'meeting' })
    await root('POST', `room/room/${room.id}/member`, { nick })

    const op = await signedInPage('root', `/room/edit/${room.id}`)
    await op.page.waitForSelector('html[data-hydrated="true"]')
    const link = await op.page.getByRole('textbox', { name: pt['channel.share.title'] }).inputValue()
    expect(link).toBe(url('demo.localhost', `/deeplink?room=${room.id}`))
    await watchPeerConnections(op.page)
    await open(op.page, url('demo.localhost', `/room/live/${room.id}`))
    await op.page.waitForSelector('[data-live-status="open"]')

    const st = await studentThroughLink(link, `/live/room/${room.id}`, nick, password)
    expect(await st.getByRole('heading', { level: 1 }).textContent()).toContain(`Reunião pelo link ${tag}`)
    await expectBothWays(op.page, st)
    await op.page.context().close()
    await st.context().close()
  })

  it("a student follows the channel's shared link into the call; she and the owner receive each other's audio and video", async () => {
    const root = await realmApi('demo', 'root')
    const nick = `aluna-link-${tag}`
    const password = 'senha-da-aluna-2'
    await root('POST', 'mas/user', { nick, name: 'Aluna do Link', password, roles: [] })
    const channel = await root<{ id: string }>('POST', 'channel', {
      name: `Aula pelo link ${tag}`,
      modes: { auto_voice_count: 1 },
      members: [{ nick: 'root', permission: 'owner' }],
    })

    // The owner, in the console's live view; the shared link is the one the channel's edit screen shows.
    const op = await signedInPage('root', `/channel/edit/${channel.id}`)
    await op.page.waitForSelector('html[data-hydrated="true"]')
    const link = await op.page.getByRole('textbox', { name: pt['channel.share.title'] }).inputValue()
    expect(link).toBe(url('demo.localhost', `/deeplink?channel=${channel.id}`))
    await watchPeerConnections(op.page)
    await open(op.page, url('demo.localhost', `/channel/live/${channel.id}`))
    await op.page.waitForSelector('[data-live-status="open"]')

    // The student opens the link and continues in the browser: the participant view, where she signs in.
    const st = await studentThroughLink(link, `/live/${channel.id}`, nick, password)
    await expectBothWays(op.page, st)
    await op.page.context().close()
    await st.context().close()
  })
})
