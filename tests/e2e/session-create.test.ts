import type { Page, Route } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { RECORDING_PART_BYTES } from '#shared/schemas/csm-recording'
import { catalogues } from '~/i18n/catalogues'
import { mp4Fixture } from '../support/mp4'
import { hydrated, open, openPage, realmApi, signInOnScreen, url } from './browser'

/**
 * session/create (issue 15): a session made by hand with an uploaded recording — wrong values refused, the file sent
 * in parts with a progress bar, paused and resumed, resumed after a reload from the browser's journal, validated by
 * the server; a file in an unsupported codec refused with its reason.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const fill = (s: string, values: Record<string, string>) => Object.entries(values).reduce((out, [k, v]) => out.replace(`{{${k}}}`, v), s)

async function roomOfItsOwn(name: string) {
  const root = await realmApi('demo', 'root')
  return root<{ id: string; name: string }>('POST', 'room/room', { name, type: 'meeting' })
}

async function createPage() {
  const opened = await openPage({ viewport: { width: 1280, height: 900 } })
  await open(opened.page, url('demo.localhost', '/session/create'))
  await signInOnScreen(opened.page, 'root')
  await expect.poll(() => opened.page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.session.create'])
  return opened
}

async function fillForm(page: Page, title: string, room: string, file: { name: string; bytes: Uint8Array }) {
  await page.getByLabel(pt['resources.csm_session.fields.title']).fill(title)
  await page.getByLabel(pt['session.create.place']).selectOption({ label: fill(pt['session.create.place_room'], { name: room }) })
  await page.getByLabel(pt['session.create.file']).setInputFiles({ name: file.name, mimeType: 'video/mp4', buffer: Buffer.from(file.bytes) })
}

const progressValue = (page: Page) => page.locator('#upload-progress').evaluate((el) => (el as HTMLProgressElement).value)

describe('session/create', () => {
  it('refuses wrong values, uploads with a progress bar, pauses, resumes after a reload, and the session has its video', async () => {
    const room = await roomOfItsOwn(`Sala upload ${tag}`)
    const { page } = await createPage()

    // Wrong: a one-letter title and no file.
    await page.getByLabel(pt['resources.csm_session.fields.title']).fill('A')
    await page.getByRole('button', { name: pt['session.create.submit'] }).click()
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(pt['form.summary'])
    expect(await page.getByLabel(pt['resources.csm_session.fields.title']).getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByLabel(pt['session.create.file']).getAttribute('aria-invalid')).toBe('true')
    // One line each: the title's and the missing file's.
    expect(await page.locator('.error-summary li').count()).toBe(2)
    await page.screenshot({ path: '/tmp/session-create-invalid.png' })

    // Right: a three-part MP4 (H.264 + AAC, two minutes). The second part is held until the test lets it go.
    const file = mp4Fixture({ tracks: ['avc', 'aac'], seconds: 120, mdatBytes: 2 * RECORDING_PART_BYTES + 300 * 1024 })
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => (release = resolve))
    const parts: number[] = []
    await page.route(
      (u) => u.pathname === '/recording' && u.searchParams.get('op') === 'part',
      async (route: Route) => {
        const index = Number(new URL(route.request().url()).searchParams.get('index'))
        parts.push(index)
        if (index === 2) await held
        await route.continue()
      },
    )
    await fillForm(page, `Aula enviada ${tag}`, room.name, { name: 'aula.mp4', bytes: file })
    await page.getByRole('button', { name: pt['session.create.submit'] }).click()
    await page.locator('#upload-progress').waitFor()
    await expect.poll(() => progressValue(page), { timeout: 30_000 }).toBe(RECORDING_PART_BYTES)
    await page.getByRole('button', { name: pt['session.create.pause'] }).click()
    release()
    // Part 2 (already on its way) arrives; part 3 waits while paused.
    await expect.poll(() => progressValue(page), { timeout: 30_000 }).toBe(2 * RECORDING_PART_BYTES)
    await expect.poll(() => page.getByRole('status').filter({ hasText: pt['session.create.paused'] }).count()).toBe(1)
    expect(parts).not.toContain(3)
    await page.screenshot({ path: '/tmp/session-create-paused.png' })

    // A reload: the upload is offered again from the browser's journal and completed.
    await page.unroute((u) => u.pathname === '/recording' && u.searchParams.get('op') === 'part')
    await page.reload()
    await hydrated(page)
    const pending = page.locator('#pending-upload')
    await expect.poll(() => pending.textContent(), { timeout: 30_000 }).toContain(`Aula enviada ${tag}`)
    expect(await pending.textContent()).toContain('aula.mp4')
    await page.getByRole('button', { name: pt['session.create.resume'] }).click()
    const done = page.getByRole('status').filter({ hasText: fill(pt['session.create.done'].split(':')[0], {}) })
    await expect.poll(() => done.count(), { timeout: 60_000 }).toBe(1)
    expect(await done.textContent()).toContain('avc + mp4a.40.2')
    await page.screenshot({ path: '/tmp/session-create-done.png' })

    // The session exists with its video, waiting for publication.
    await page.getByRole('link', { name: pt['session.create.open'] }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/session/detail/'))
    await hydrated(page)
    const main = page.locator('main')
    await expect.poll(() => main.textContent()).toContain(`Aula enviada ${tag}`)
    expect(await main.textContent()).toContain(pt['session.status.pending'])
    expect(await main.textContent()).toContain(room.name)

    // Nothing is left in the journal.
    await open(page, url('demo.localhost', '/session/create'))
    expect(await page.locator('#pending-upload').count()).toBe(0)
  })

  it('refuses a recording in an unsupported codec with its reason, and keeps the form for another file', async () => {
    const room = await roomOfItsOwn(`Sala vp8 ${tag}`)
    const { page } = await createPage()
    const file = mp4Fixture({ tracks: ['vp08', 'aac'], seconds: 10 })
    await fillForm(page, `Aula VP8 ${tag}`, room.name, { name: 'vp8.mp4', bytes: file })
    await page.getByRole('button', { name: pt['session.create.submit'] }).click()
    const alert = page.getByRole('alert').filter({ hasText: pt['errors.video_codec'] })
    await expect.poll(() => alert.count(), { timeout: 60_000 }).toBe(1)
    await page.screenshot({ path: '/tmp/session-create-refused.png' })
    // The form is there again with what was typed.
    expect(await page.getByLabel(pt['resources.csm_session.fields.title']).inputValue()).toBe(`Aula VP8 ${tag}`)
    // And no session of that title was kept.
    const root = await realmApi('demo', 'root')
    const list = await root<{ items: { title: string }[] }>('GET', `csm/session?like=${encodeURIComponent(`Aula VP8 ${tag}`)}`)
    expect(list.items).toEqual([])
  })
})
