import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { mp4Fixture } from '../support/mp4'
import { hydrated, open, openPage, realmApi, signedInPage, url } from './browser'
import { d1Execute } from './d1'

/**
 * Watching a recorded session (issue 15) on a phone: a student signs in to `/mobile/csm`, finds the published session
 * of her room, opens the player (the realm's controlsList, the video streamed with range requests), watches part of
 * it and leaves the page; the progress reaches the server, and the staff's session detail shows her percentage.
 *
 * The fixture MP4 (tests/support/mp4.ts) has real boxes but no coded frames, so Chromium cannot play it: playback is
 * driven by setting the `<video>`'s `currentTime` and dispatching `timeupdate`, as the element does while playing.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }
const fill = (s: string, values: Record<string, string>) => Object.entries(values).reduce((out, [k, v]) => out.replace(`{{${k}}}`, v), s)

/** A room with the student in it and a 95-second session uploaded there, published. */
async function publishedSession(title: string) {
  const root = await realmApi('demo', 'root')
  const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Sala vídeo ${tag}`, type: 'meeting' })
  await root('POST', `room/room/${room.id}/member`, { nick: 'student' })
  const file = mp4Fixture({ tracks: ['avc', 'aac'], seconds: 95, mdatBytes: 64 * 1024 })
  const headers = { 'content-type': 'application/json', 'x-api-realm': 'demo' }
  const signin = await fetch(url('localhost', '/api/device'), {
    method: 'POST',
    headers,
    body: JSON.stringify({ realm: 'demo', nick: 'root', password: 'demo1234' }),
  })
  const { auth_token } = (await signin.json()) as { auth_token: string }
  const auth = { ...headers, 'x-api-key': auth_token }
  const upload = (await (
    await fetch(url('localhost', '/api/csm/recording/upload'), {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ title, target: 'room', target_id: room.id, reference_date: '2026-05-04', mime: 'video/mp4', size: file.byteLength }),
    })
  ).json()) as { id: string; session_id: string }
  const part = await fetch(url('localhost', `/api/csm/recording/${upload.id}/part/1`), {
    method: 'PUT',
    headers: { ...auth, 'content-type': 'application/octet-stream' },
    body: Buffer.from(file),
  })
  expect(part.status).toBe(201)
  const done = await fetch(url('localhost', `/api/csm/recording/${upload.id}/complete`), { method: 'POST', headers: auth })
  expect(done.status).toBe(200)
  // Publishing is not an API of this branch (issue 15's publish action): the status is set in D1.
  await d1Execute(`UPDATE csm_session SET status = 'published' WHERE id = '${upload.session_id}'`)
  return { id: upload.session_id, room, size: file.byteLength }
}

describe('mobile-web sessions', () => {
  it('lets a student on a phone find a published session, watch part of it, and the detail shows her percentage', async () => {
    const title = `Aula gravada ${tag}`
    const session = await publishedSession(title)

    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', '/mobile/csm'))
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(pt['mobile.csm.signin_title'])
    await page.getByLabel(pt['mobile.feed.nick']).fill('student')
    await page.getByLabel(pt['mobile.feed.password']).fill('demo1234')
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await page.waitForSelector('.csm-list')
    await hydrated(page)

    // Her room's group holds the session, not yet watched.
    const group = page.getByRole('region', { name: session.room.name })
    const item = group.locator(`[data-session="${session.id}"]`)
    expect(await item.count()).toBe(1)
    expect(await item.locator('[data-percent]').getAttribute('data-percent')).toBe('0')
    // Filtering by her room keeps it; the filter's choices are her sessions' rooms.
    await page.getByLabel(pt['mobile.csm.room'], { exact: true }).selectOption({ label: session.room.name })
    await page.getByRole('button', { name: pt['mobile.csm.apply'] }).click()
    await page.waitForURL((u) => u.searchParams.get('room_id') === session.room.id)
    await expect.poll(() => page.locator('.csm-item').count()).toBe(1)
    await page.screenshot({ path: '/tmp/mobile-csm-list.png', fullPage: true })

    await page.getByRole('link', { name: fill(pt['mobile.csm.watch'], { title }) }).click()
    await page.waitForSelector('video')
    await hydrated(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title)
    const video = page.locator('video')
    // demo's csm_player_controls_list (the realm default, nodownload).
    expect(await video.getAttribute('controlslist')).toBe('nodownload')
    // The stream answers ranges, as the element asks when it seeks.
    const ranged = await page.evaluate(
      async (src) => {
        const res = await fetch(src, { headers: { range: 'bytes=100-199' } })
        return {
          status: res.status,
          range: res.headers.get('content-range'),
          type: res.headers.get('content-type'),
          bytes: (await res.arrayBuffer()).byteLength,
        }
      },
      (await video.getAttribute('src')) ?? '',
    )
    expect(ranged).toEqual({ status: 206, range: `bytes 100-199/${session.size}`, type: 'video/mp4', bytes: 100 })

    // Watching: 0:05 (slot 0), a seek to 1:05 (slot 2), then 1:32 (the last slot, 5 s): 65 of 95 s.
    for (const at of [5, 12, 65, 92]) {
      await video.evaluate((el: HTMLVideoElement, t) => {
        el.currentTime = t
        el.dispatchEvent(new Event('timeupdate'))
      }, at)
    }
    await expect.poll(() => page.locator('.csm-progress').getAttribute('data-percent')).toBe('68.42')
    expect(await page.locator('.csm-progress').textContent()).toContain(
      fill(pt['mobile.csm.progress'], { watched: '1:05', duration: '1:35', percent: '68,42' }),
    )
    await page.screenshot({ path: '/tmp/mobile-csm-player.png', fullPage: true })

    // Not reported yet (the player reports every slot period), so kept in the browser's storage for her.
    const unsent = () => page.evaluate(() => localStorage.getItem('csm-watch-unsent'))
    expect(JSON.parse((await unsent()) ?? '{}')).toEqual({ [`student@demo\n${session.id}`]: [0, 2, 3] })
    // The tab closes with the network gone: the beacon sent on leaving cannot arrive.
    await page.context().setOffline(true)
    await page.goto('about:blank')
    await page.context().setOffline(false)

    // Back on the list, the csm page sends what was never acknowledged and shows her progress; storage is emptied.
    await open(page, url('demo.localhost', '/mobile/csm'))
    await expect.poll(() => page.locator(`[data-session="${session.id}"] [data-percent]`).getAttribute('data-percent')).toBe('68.42')
    await expect.poll(unsent).toBeNull()
    const root = await realmApi('demo', 'root')
    expect((await root<{ items: { nick: string; percent: number }[] }>('GET', `csm/session/${session.id}/watchers`)).items).toEqual([
      expect.objectContaining({ nick: 'student@demo', percent: 68.42, watched_seconds: 65 }),
    ])
    // The staff's detail shows who watched.
    const staff = await signedInPage('root', `/session/detail/${session.id}`)
    const watchers = staff.page.getByRole('region', { name: pt['session.watchers.title'] })
    await expect.poll(() => watchers.locator('[data-watcher="student@demo"] [data-percent]').textContent()).toBe('68,42%')
    expect(await watchers.locator('[data-metric="viewers"]').textContent()).toBe('1')
    expect(await watchers.locator('[data-metric="watched_percent"]').textContent()).toBe('68,42%')
    await watchers.scrollIntoViewIfNeeded()
    await staff.page.screenshot({ path: '/tmp/mobile-csm-detail.png', fullPage: true })
  })

  it('shows the empty state to a student without published sessions', async () => {
    // demo's manager is a member of no room or channel.
    const nick = 'manager'
    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', '/mobile/csm'))
    await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
    await page.getByLabel(pt['mobile.feed.password']).fill('demo1234')
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await expect.poll(() => page.getByRole('status').last().textContent()).toBe(pt['mobile.csm.empty'])
    await page.screenshot({ path: '/tmp/mobile-csm-empty.png', fullPage: true })
  })
})
