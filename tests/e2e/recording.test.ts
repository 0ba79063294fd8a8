import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { fileBrowserFlags, open, openPage, realmApi, signInOnScreen, signedInPage, url } from './browser'

/**
 * Recording a live session (issue 20 "Recording"), in Chromium with fake media devices: the recorder composes the call
 * and its audio mix, records it with MediaRecorder and uploads it while recording; the recording becomes the
 * channel's or room's session with its video's duration. Stopped by hand, by the realm's csm_max_duration, and by
 * csm_max_idle_time (no sound).
 */

fileBrowserFlags(
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
)

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

type Realm = Record<string, unknown>

/** PUT on the realm API as the platform operator (infra settings) (the browser helper's client sends GET and POST only). */
async function putRealm(body: Realm) {
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const signin = await fetch(url('localhost', '/api/device'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ realm: 'demo', nick: 'platform', password: 'demo1234' }),
  })
  const { auth_token } = (await signin.json()) as { auth_token: string }
  const res = await fetch(url('localhost', '/api/mas/realm/demo'), {
    method: 'PUT',
    headers: { ...headers, 'x-api-key': auth_token },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`PUT mas/realm/demo: ${res.status} ${await res.text()}`)
}

/**
 * Runs `fn` with the realm's recording settings (and the storage credentials recording needs switched on: the realm
 * settings' rule), then puts the realm back as it was (but for the storage key: an empty secret keeps the stored one).
 */
async function withRecordingRealm(settings: Realm, fn: () => Promise<void>) {
  const root = await realmApi('demo', 'root')
  const before = await root<Realm>('GET', 'mas/realm/demo')
  const storage = {
    storage_bucket: before.storage_bucket || 'demo-recordings',
    storage_region: before.storage_region || 'auto',
    storage_credential_id: before.storage_credential_id || 'demo-id',
    storage_credential_key: 'demo-key',
  }
  await putRealm({
    ...storage,
    csm_room_enable: true,
    csm_channel_enable: true,
    csm_must_record: false,
    csm_max_duration: 0,
    csm_max_idle_time: 0,
    ...settings,
  })
  try {
    await fn()
  } finally {
    await putRealm({
      storage_bucket: before.storage_bucket ?? '',
      storage_region: before.storage_region ?? '',
      storage_credential_id: before.storage_credential_id ?? '',
      csm_room_enable: before.csm_room_enable,
      csm_channel_enable: before.csm_channel_enable,
      csm_must_record: before.csm_must_record,
      csm_max_duration: before.csm_max_duration,
      csm_max_idle_time: before.csm_max_idle_time,
    })
  }
}

type SessionRow = { id: string; status: string; video_status: string; video_seconds: number | null }

describe('recording', () => {
  it('a recording of about 10 seconds uploads and appears as a session with its duration', async () => {
    await withRecordingRealm({ csm_must_record: true }, async () => {
      const root = await realmApi('demo', 'root')
      const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Gravada ${tag}`, type: 'meeting', recording: true })
      const { page } = await signedInPage('root', `/room/live/${room.id}`)
      await page.waitForSelector('[data-live-status="open"]')
      // A camera in the call, so the composite has a video to show.
      await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
      await page.locator('.live-tile-self video').waitFor()

      // must_record: the recorder started on its own.
      const recorder = page.locator('section.live-recorder')
      await recorder.getByRole('heading', { name: pt['recording.title'] }).waitFor()
      await page.waitForSelector('section.live-recorder[data-recording="recording"]', { timeout: 30_000 })
      await recorder.getByText(pt['recording.recording'].replace('{{elapsed}}', '0:10')).waitFor({ timeout: 60_000 })
      await recorder.getByRole('button', { name: pt['recording.stop'] }).click()
      await page.waitForSelector('section.live-recorder[data-recording="done"]', { timeout: 60_000 })

      // The room's sessions: the recording is a session with its video (processed) and the video's duration.
      const { items } = await root<{ items: SessionRow[] }>('GET', `room/live/${room.id}/session`)
      expect(items).toHaveLength(1)
      expect(items[0]).toMatchObject({ status: 'pending', video_status: 'processed' })
      expect(items[0].video_seconds).toBeGreaterThanOrEqual(9)
      expect(items[0].video_seconds).toBeLessThan(30)

      await page.reload()
      const cell = page.locator('td[data-video-status="processed"]')
      await cell.waitFor()
      expect(await cell.textContent()).toContain(pt['live.session.video_status.processed'])
    })
  })

  it("stops on its own at the realm's maximum duration", async () => {
    await withRecordingRealm({ csm_must_record: true, csm_max_duration: 4 }, async () => {
      const root = await realmApi('demo', 'root')
      const room = await root<{ id: string }>('POST', 'room/room', { name: `Limitada ${tag}`, type: 'meeting', recording: true })
      const { page } = await signedInPage('root', `/room/live/${room.id}`)
      await page.waitForSelector('[data-live-status="open"]')
      await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
      await page.locator('.live-tile-self video').waitFor()
      await page.waitForSelector('section.live-recorder[data-recording="recording"]', { timeout: 30_000 })
      // Nobody presses stop: the limit does, and what was recorded is still saved.
      await page.waitForSelector('section.live-recorder[data-recording="done"]', { timeout: 60_000 })
      await page.locator('section.live-recorder').getByText(pt['recording.stopped.duration']).waitFor()
      const { items } = await root<{ items: SessionRow[] }>('GET', `room/live/${room.id}/session`)
      expect(items).toHaveLength(1)
      expect(items[0].video_status).toBe('processed')
      expect(items[0].video_seconds).toBeGreaterThanOrEqual(3)
      expect(items[0].video_seconds).toBeLessThanOrEqual(9)
    })
  })

  it('a recording cut short by a reload is sent from the browser’s journal and saved when the recorder comes back', async () => {
    await withRecordingRealm({}, async () => {
      const root = await realmApi('demo', 'root')
      const room = await root<{ id: string }>('POST', 'room/room', { name: `Retomada ${tag}`, type: 'meeting', recording: true })
      const { page } = await signedInPage('root', `/room/live/${room.id}`)
      await page.waitForSelector('[data-live-status="open"]')
      await page.getByRole('button', { name: pt['live.media.turn_on'] }).click()
      await page.locator('.live-tile-self video').waitFor()
      const recorder = page.locator('section.live-recorder')
      await recorder.getByRole('button', { name: pt['recording.start'] }).click()
      await recorder.getByText(pt['recording.recording'].replace('{{elapsed}}', '0:04')).waitFor({ timeout: 60_000 })
      // The tab is reloaded mid-recording: nothing was completed (the recording is under one part, so nothing sent).
      await page.reload()
      await page.waitForSelector('section.live-recorder:is([data-recording="done"], [data-recording="error"])', { timeout: 60_000 })
      expect(await recorder.getAttribute('data-recording'), (await recorder.textContent()) ?? '').toBe('done')
      expect(await recorder.textContent()).toContain(pt['recording.resumed'].split('(')[0].trim())
      const { items } = await root<{ items: SessionRow[] }>('GET', `room/live/${room.id}/session`)
      expect(items).toHaveLength(1)
      expect(items[0]).toMatchObject({ status: 'pending', video_status: 'processed' })
      expect(items[0].video_seconds).toBeGreaterThanOrEqual(2)
      // Back to idle afterwards: a second visit finds nothing more to send.
      await page.reload()
      await page.waitForSelector('section.live-recorder[data-recording="idle"]')
    })
  })

  it("a channel's recorder member records from the participant view; silence stops it at the maximum idle time", async () => {
    await withRecordingRealm({ csm_max_idle_time: 3 }, async () => {
      const root = await realmApi('demo', 'root')
      const ch = await root<{ id: string }>('POST', 'channel', {
        name: `Gravação ${tag}`,
        modes: { session_recording: true },
        members: [
          { nick: 'root', permission: 'owner' },
          { nick: 'manager', permission: 'recorder' },
        ],
      })
      const { page } = await openPage({ viewport: { width: 390, height: 800 } })
      await open(page, url('demo.localhost', '/login'))
      await signInOnScreen(page, 'manager')
      await page.waitForSelector('nav[aria-label="Navegação principal"]')
      await open(page, url('demo.localhost', `/live/${ch.id}`))
      await page.waitForSelector('[data-live-status="open"]')

      // Not must_record: the recorder starts it by hand. Nobody transmits, so nothing is heard.
      const recorder = page.locator('section.live-recorder')
      await recorder.getByRole('button', { name: pt['recording.start'] }).click()
      await page.waitForSelector('section.live-recorder[data-recording="recording"]', { timeout: 30_000 })
      await page.waitForSelector('section.live-recorder:is([data-recording="done"], [data-recording="error"])', { timeout: 60_000 })
      expect(await recorder.textContent()).toContain(pt['recording.stopped.idle'])
      expect(await recorder.getAttribute('data-recording'), (await recorder.textContent()) ?? '').toBe('done')
      const { items } = await root<{ items: SessionRow[] }>('GET', `channel/live/${ch.id}/session`)
      expect(items).toHaveLength(1)
      expect(items[0]).toMatchObject({ status: 'pending', video_status: 'processed' })
      expect(items[0].video_seconds).toBeGreaterThanOrEqual(2)
      expect(items[0].video_seconds).toBeLessThanOrEqual(10)
    })
  })
})
