import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { mp4Fixture } from '../support/mp4'
import { RECORDING_PART_BYTES } from '#shared/schemas/csm-recording'
import { hydrated, open, openPage, realmApi, signInOnScreen, url } from './browser'
import { putRealm, sessionWithVideo } from './session-helpers'

/**
 * A session's lifecycle on its detail (issue 15): a session with its video published, unpublished, recorded again
 * (an empty justification refused in the dialog, a real one accepted: the video is gone), and edited on
 * session/edit (a wrong title refused, a right one saved and still there after a reload).
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('session lifecycle', () => {
  it('publishes, unpublishes, rerecords with a justification and edits a session', async () => {
    const title = `Aula ciclo ${tag}`
    const s = await sessionWithVideo(title, mp4Fixture({ tracks: ['avc', 'aac'], seconds: 10 }))
    const { page } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', `/session/detail/${s.id}`))
    await signInOnScreen(page, 'root')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title)
    const badge = page.locator('[data-status]').first()
    expect(await badge.getAttribute('data-status')).toBe('pending')
    // The player streams the video with ranges (seeking works).
    const player = page.getByLabel(pt['session.detail.player'])
    expect(await player.getAttribute('src')).toBe(`/mobile/csm/video/${s.id}`)
    const ranged = await page.evaluate(async (src) => {
      const r = await fetch(src, { headers: { range: 'bytes=0-99' } })
      return [r.status, r.headers.get('content-range')?.split('/')[0], (await r.arrayBuffer()).byteLength]
    }, `/mobile/csm/video/${s.id}`)
    expect(ranged).toEqual([206, 'bytes 0-99', 100])
    // Only what the status allows: publish, not unpublish.
    expect(await page.getByRole('button', { name: pt['session.life.unpublish'] }).count()).toBe(0)

    await page.getByRole('button', { name: pt['session.life.publish'] }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: pt['session.life.done_publish'] }).count()).toBe(1)
    await expect.poll(() => badge.getAttribute('data-status')).toBe('published')
    expect(await badge.textContent()).toBe(pt['session.status.published'])
    await page.screenshot({ path: '/tmp/session-lifecycle-published.png' })

    await page.getByRole('button', { name: pt['session.life.unpublish'] }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: pt['session.life.done_unpublish'] }).count()).toBe(1)
    await expect.poll(() => badge.getAttribute('data-status')).toBe('unpublished')
    expect(await page.getByRole('button', { name: pt['session.life.publish'] }).count()).toBe(1)

    // Rerecord: the dialog asks the justification; empty is refused there.
    await page.getByRole('button', { name: pt['session.life.rerecord'] }).click()
    const dialog = page.getByRole('dialog', { name: pt['session.life.rerecord_title'] })
    await dialog.waitFor()
    const justification = dialog.getByLabel(pt['session.life.justification'])
    expect(await justification.evaluate((el) => el === document.activeElement)).toBe(true)
    await dialog.getByRole('button', { name: pt['session.life.rerecord_confirm'] }).click()
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain(pt['validation.required'])
    expect(await justification.getAttribute('aria-invalid')).toBe('true')
    await expect.poll(() => badge.getAttribute('data-status')).toBe('unpublished')
    await page.screenshot({ path: '/tmp/session-lifecycle-justification.png' })
    await justification.fill('O áudio falhou na segunda metade.')
    await dialog.getByRole('button', { name: pt['session.life.rerecord_confirm'] }).click()
    await expect.poll(() => page.getByRole('status').filter({ hasText: pt['session.life.done_rerecord'] }).count()).toBe(1)
    await page.screenshot({ path: '/tmp/session-lifecycle-rerecorded.png' })
    expect(await dialog.isVisible()).toBe(false)
    await expect.poll(() => badge.getAttribute('data-status')).toBe('rerecord')
    expect(await page.locator('[data-video-status]').getAttribute('data-video-status')).toBe('no_video')
    expect(await player.count()).toBe(0)
    // Waiting for its re-recording: neither publish nor rerecord is offered.
    expect(await page.getByRole('button', { name: pt['session.life.publish'] }).count()).toBe(0)
    expect(await page.getByRole('button', { name: pt['session.life.rerecord'] }).count()).toBe(0)
    await page.screenshot({ path: '/tmp/session-lifecycle-rerecorded.png' })
    // The justification is in the audit log, with who asked.
    const root = await realmApi('demo', 'root')
    const log = await root<{ items: { action: string; actor: string; changes: Record<string, unknown> }[] }>(
      'GET',
      `mas/audit_log?entity=csm_session&entity_id=${s.id}&limit=10`,
    )
    expect(log.items.map((a) => a.action).sort()).toEqual(['publish', 'rerecord', 'unpublish'])
    expect(log.items.find((a) => a.action === 'rerecord')).toMatchObject({
      actor: expect.stringMatching(/^root/),
      changes: { justification: [null, 'O áudio falhou na segunda metade.'] },
    })

    // Edit: a one-letter title is refused, a right one is saved.
    await page.getByRole('link', { name: pt['session.life.edit'] }).click()
    await page.waitForURL((u) => u.pathname === `/session/edit/${s.id}`)
    await hydrated(page)
    const titleField = page.getByLabel(pt['resources.csm_session.fields.title'])
    expect(await titleField.inputValue()).toBe(title)
    await titleField.fill('A')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => titleField.getAttribute('aria-invalid')).toBe('true')
    await page.screenshot({ path: '/tmp/session-lifecycle-edit-invalid.png' })
    await titleField.fill(`${title} revisada`)
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === `/session/detail/${s.id}`)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(`${title} revisada`)
    await page.reload()
    await hydrated(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`${title} revisada`)
    await page.screenshot({ path: '/tmp/session-lifecycle-edited.png' })
  })

  it('refuses an upload past the realm storage quota with "No space to store the videos", keeping nothing', async () => {
    const root = await realmApi('demo', 'root')
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Sala cota ${tag}`, type: 'meeting' })
    // A 1 MB quota and a file of more than 1 MB: refused whatever the realm already stores.
    await putRealm({ csm_storage_quota_mb: 1 })
    try {
      const { page } = await openPage({ viewport: { width: 1280, height: 900 } })
      await open(page, url('demo.localhost', '/session/create'))
      await signInOnScreen(page, 'root')
      await page.getByLabel(pt['resources.csm_session.fields.title']).fill(`Aula sem espaço ${tag}`)
      await page.getByLabel(pt['session.create.place']).selectOption({ label: pt['session.create.place_room'].replace('{{name}}', room.name) })
      const file = mp4Fixture({ tracks: ['avc', 'aac'], seconds: 60, mdatBytes: RECORDING_PART_BYTES / 4 })
      await page.getByLabel(pt['session.create.file']).setInputFiles({ name: 'grande.mp4', mimeType: 'video/mp4', buffer: Buffer.from(file) })
      await page.getByRole('button', { name: pt['session.create.submit'] }).click()
      await expect.poll(() => page.locator('main').textContent()).toContain(pt['errors.storage_full'])
      await page.screenshot({ path: '/tmp/session-lifecycle-storage-full.png' })
      const list = await root<{ items: unknown[] }>('GET', `csm/session?like=${encodeURIComponent(`Aula sem espaço ${tag}`)}`)
      expect(list.items).toEqual([])
    } finally {
      await putRealm({ csm_storage_quota_mb: 0 })
    }
  })
})
