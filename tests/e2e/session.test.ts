import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { open, openPage, signInOnScreen, url } from './browser'
import { recordedSessions } from './session-helpers'

/** Issue 15's console screens: session categories (a plain entity) and the sessions list. */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('session categories', () => {
  it('creates with a wrong then a right name, edits, and keeps the change after a reload', async () => {
    const { context, page, errors } = await openPage({ viewport: { width: 1366, height: 900 } })
    await open(page, url('demo.localhost', '/session/category/create'))
    await signInOnScreen(page, 'root')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.session.category.create'])
    await page.waitForSelector('html[data-hydrated="true"]')
    const f = (k: string) => page.getByLabel(pt[`resources.csm_category.fields.${k}`])
    expect(await f('active').isChecked()).toBe(true)

    // Wrong: a one-letter name is refused, nothing saved.
    await f('name').fill('A')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(pt['form.summary'])
    expect(await f('name').getAttribute('aria-invalid')).toBe('true')
    expect(page.url()).toContain('/session/category/create')

    // Right.
    await f('name').fill(`Aulas ${tag}`)
    await f('description').fill('Gravações das aulas ao vivo')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/session/category')
    await open(page, url('demo.localhost', `/session/category?like=${tag}`))
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.session.category.list'])
    const row = page.locator('tbody tr', { hasText: `Aulas ${tag}` })
    await expect.poll(() => row.count()).toBe(1)
    expect(await row.textContent()).toContain('Gravações das aulas ao vivo')

    // Edit: turned off and renamed; kept after a reload.
    await row.getByRole('link', { name: pt['tms.list.edit'].replace('{{name}}', `Aulas ${tag}`) }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/session/category/edit/'))
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await f('name').inputValue()).toBe(`Aulas ${tag}`)
    await f('name').fill(`Aulas gravadas ${tag}`)
    await f('active').uncheck()
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/session/category')
    await open(page, url('demo.localhost', `/session/category?like=${tag}`))
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    const edited = page.locator('tbody tr', { hasText: `Aulas gravadas ${tag}` })
    await expect.poll(() => edited.count()).toBe(1)
    await edited.getByRole('link', { name: pt['tms.list.edit'].replace('{{name}}', `Aulas gravadas ${tag}`) }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/session/category/edit/'))
    await page.waitForSelector('html[data-hydrated="true"]')
    expect(await f('active').isChecked()).toBe(false)
    await page.screenshot({ path: '/tmp/sess-category-edit.png' })
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('sessions list', () => {
  it('shows recorded sessions with translated statuses, filters them by room and status, exports CSV and opens one', async () => {
    const [first, second] = await recordedSessions([`Aula gravada ${tag}`, `Reunião gravada ${tag}`])
    const { context, page, errors } = await openPage({ viewport: { width: 1366, height: 900 } })
    await open(page, url('demo.localhost', `/session?title=${tag}`))
    await signInOnScreen(page, 'root')
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.session.list'])
    await page.waitForSelector('html[data-hydrated="true"]')
    const rows = page.locator('tbody tr')
    await expect.poll(() => rows.count()).toBe(2)
    const row = page.locator('tbody tr', { hasText: first.name })
    const text = (await row.textContent()) ?? ''
    // Labels, never internal names.
    expect(text).toContain(pt['session.status.started'])
    expect(text).toContain(pt['live.session.video_status.no_video'])
    expect(text).toContain(pt['session.recorded_in.room'])
    expect(text).not.toContain('no_video')
    // The reference date is a day in the page language's format.
    expect(text).toMatch(/\d{2}\/\d{2}\/\d{4}/)

    // The room filter of the search bar: only that room's session.
    await page.getByRole('combobox', { name: pt['resources.csm_session.fields.room_id'], exact: true }).selectOption({ label: second.name })
    await page.getByRole('button', { name: pt['table.filters.apply'] }).click()
    await page.waitForURL((u) => u.searchParams.get('room_id') === second.id)
    await expect.poll(() => rows.count()).toBe(1)
    expect(await rows.first().textContent()).toContain(second.name)
    await page.reload()
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.locator('tbody tr', { hasText: second.name }).count()).toBe(1)
    await page.screenshot({ path: '/tmp/sess-session-list.png', fullPage: true })

    // A status none of them has: the empty state.
    await open(page, url('demo.localhost', `/session?title=${tag}&status=published`))
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.locator('body').textContent()).toContain(pt['table.empty'])

    // CSV: the same rows under the same filters, with the labels.
    const csv = await page.evaluate(async (q) => (await fetch(`/export/csm_session?${q}`)).text(), `title=${tag}`)
    expect(csv).toContain(first.name)
    expect(csv).toContain(second.name)
    expect(csv).toContain(pt['session.status.started'])

    // The detail, opened from its row: metadata, metrics and the video's state, as labels.
    await open(page, url('demo.localhost', `/session?title=${tag}`))
    await page.waitForSelector('html[data-hydrated="true"]')
    await page
      .locator('tbody tr', { hasText: first.name })
      .getByRole('link', { name: pt['session.open'].replace('{{name}}', first.name) })
      .click()
    await page.waitForURL((u) => u.pathname.startsWith('/session/detail/'))
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(first.name)
    expect(await page.locator('[data-status]').textContent()).toBe(pt['session.status.started'])
    const facts = (await page.locator('main').textContent()) ?? ''
    expect(facts).toContain(`${pt['session.recorded_in.room']} · ${first.name}`)
    expect(facts).toContain(pt['session.detail.metrics'])
    expect(await page.locator('[data-metric="chat_count"]').textContent()).toBe('0')
    // Its recording was given up: the video section says so.
    const video = (await page.getByRole('region', { name: pt['session.detail.video'] }).textContent()) ?? ''
    expect(video).toContain(pt['session.recording.aborted'])
    expect(video).not.toContain('errors.')
    await page.screenshot({ path: '/tmp/sess-session-detail.png', fullPage: true })
    expect(errors).toEqual([])
    await context.close()
  })
})
