import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, open, openPage, realmApi, url } from './browser'

/**
 * The mobile-web feed (issue 13) on a phone, as a student uses it: sign in (a wrong password refused), the feed of
 * their rooms with the pinned post first, a post of their own, the next page, and signing out. Always OCEAN.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

describe('mobile-web feed', () => {
  it('signs a student in, shows their rooms’ feed pinned first and by pages, takes a post, and signs out', async () => {
    // A room of the student's with 22 staff posts, the first pinned (made through the API as root).
    const api = await realmApi('demo', 'root')
    const room = await api<{ id: string; name: string }>('POST', 'room/room', { name: `Mural ${tag}` })
    await api('POST', `room/room/${room.id}/member`, { nick: 'student' })
    const pinned = await api<{ id: string }>('POST', 'feed/post', { room_id: room.id, message: `Aviso fixado ${tag}` })
    await api('POST', `feed/post/${pinned.id}/pin`)
    for (let i = 0; i < 21; i++) await api('POST', 'feed/post', { room_id: room.id, message: `Recado ${i} ${tag}` })

    const { page } = await openPage(PHONE)
    // Deliberate: the wrong password is answered 401 by the sign-in.
    expectConsoleErrors(page, /status of 401/)
    await open(page, url('demo.localhost', '/mobile/feed'))
    expect(await page.locator('html').getAttribute('data-theme')).toBe('OCEAN')
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(pt['mobile.feed.signin_title'])
    await page.getByLabel(pt['mobile.feed.nick']).fill('student')
    await page.getByLabel(pt['mobile.feed.password']).fill('senha-errada')
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe(pt['mobile.feed.credentials'])

    await page.getByLabel(pt['mobile.feed.password']).fill('demo1234')
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await page.waitForSelector('.feed-list')
    await hydrated(page)
    expect(await page.getByText(pt['mobile.feed.hello'].replace('{{name}}', 'Ana Costa')).count()).toBe(1)
    // Pinned posts come first; this room's pinned one among them, before any unpinned post.
    const posts = page.locator('.feed-post')
    const flags = await posts.evaluateAll((els) => els.map((e) => e.getAttribute('data-pinned')))
    expect(flags.indexOf('false')).toBeGreaterThan(0)
    expect(flags.slice(0, flags.indexOf('false')).every((f) => f === 'true')).toBe(true)
    expect(await page.locator('.feed-post[data-pinned="true"]', { hasText: `Aviso fixado ${tag}` }).count()).toBe(1)
    expect(await page.locator('.feed-post[data-pinned="false"]').first().textContent()).toContain(`Recado 20 ${tag}`)
    expect(await page.locator('.feed-post[data-pinned="false"]').count()).toBe(20)

    // A post of her own, to this room.
    await page.getByLabel(pt['feed.room']).selectOption({ label: `Mural ${tag}` })
    await page.getByLabel(pt['feed.message']).fill(`Dúvida da aluna ${tag}`)
    await page.getByRole('button', { name: pt['feed.publish'] }).click()
    await expect.poll(() => page.locator('.feed-post[data-pinned="false"]').first().textContent()).toContain(`Dúvida da aluna ${tag}`)
    await expect.poll(() => page.locator('.toast').last().textContent()).toContain(pt['feed.posted'])
    expect(await page.getByLabel(pt['feed.message']).inputValue()).toBe('')

    // The next page holds the older posts; the first again with "back to the newest".
    await page.getByRole('link', { name: pt['feed.more'] }).click()
    await page.waitForURL((u) => u.searchParams.has('after'))
    await expect.poll(() => page.locator('.feed-post', { hasText: `Recado 0 ${tag}` }).count()).toBe(1)
    expect(await page.locator('.feed-post[data-pinned="true"]').count()).toBe(0)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.getByRole('link', { name: pt['feed.newest'] }).click()
    await page.waitForURL((u) => !u.searchParams.has('after'))

    await page.getByRole('button', { name: pt['mobile.feed.signout'] }).click()
    await expect.poll(() => page.getByRole('heading', { level: 2 }).textContent()).toBe(pt['mobile.feed.signin_title'])
  })
})
