import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * Rooms go live (issue 13), in the browser: a room editor in the console's live view of a room and a student member in
 * the room's participant view (`/live/room/{roomId}`, the mobile-web sign-in), each in their own browser context.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('live room', () => {
  it('an editor and a student member in two contexts: the heading names the room, a message and a raised hand reach the other side', async () => {
    const root = await realmApi('demo', 'root')
    const nick = `aluna-live-${tag}`
    const password = 'senha-da-aluna-1'
    await root('POST', 'mas/user', { nick, name: 'Aluna Ao Vivo', password, roles: [] })
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Sala viva ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick })

    // The room's screen offers "go live"; the live view names the room.
    const op = await signedInPage('root', `/room/edit/${room.id}`)
    await op.page.getByRole('link', { name: pt['live.go_live'] }).click()
    await op.page.waitForURL(`**/room/live/${room.id}`)
    await expect.poll(() => op.page.getByRole('heading', { level: 1 }).textContent()).toBe(`${pt['pages.room.live']}: ${room.name}`)
    await op.page.waitForSelector('[data-live-status="open"]')
    expect(await op.page.locator('.live-status').textContent()).toContain(pt['live.role.admin'])

    // The student: no console access, the participant view's own sign-in, on a phone; no guest door for rooms.
    const st = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    await open(st.page, url('demo.localhost', `/live/room/${room.id}`))
    expect(await st.page.getByRole('button', { name: pt['live.as_guest'] }).count()).toBe(0)
    await st.page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill(nick)
    await st.page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill(password)
    await st.page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
    await st.page.waitForSelector('[data-live-status="open"]')
    // The heading is the room's name once the party admitted her (not the generic "Sala ao vivo").
    await expect.poll(() => st.page.getByRole('heading', { level: 1 }).textContent()).toBe(room.name)
    expect(await st.page.locator('.live-status').textContent()).toContain(pt['live.role.participant'])
    await expect.poll(() => op.page.locator('.live-people li').count()).toBe(2)

    await st.page.getByLabel(pt['live.message']).fill(`Pergunta da sala ${tag}`)
    await st.page.getByRole('button', { name: pt['live.send'] }).click()
    await expect.poll(() => op.page.locator('.live-log').textContent()).toContain(`Pergunta da sala ${tag}`)
    await op.page.getByLabel(pt['live.message']).fill('Respondo já')
    await op.page.getByLabel(pt['live.message']).press('Enter')
    await expect.poll(() => st.page.locator('.live-log').textContent()).toContain('Respondo já')

    await st.page.getByRole('button', { name: pt['live.raise_hand'] }).click()
    await expect.poll(() => op.page.locator('.live-hands li').count()).toBe(1)
    // Raise hand → the moderator invites her to speak (issue 20): her hand goes down, everyone sees her as a speaker.
    await op.page.getByRole('button', { name: pt['live.invite_speak'].replace('{{name}}', 'Aluna Ao Vivo') }).click()
    await expect.poll(() => op.page.locator('.live-hands li').count()).toBe(0)
    await expect.poll(() => st.page.locator('.live-people').textContent()).toContain(pt['live.speaker'])
    expect(await st.page.getByRole('button', { name: pt['live.raise_hand'] }).getAttribute('aria-pressed')).toBe('false')

    // Closing the room ends the session for everyone: the student is told.
    await root('POST', `room/room/${room.id}/close`)
    await expect.poll(() => st.page.getByRole('alert').textContent()).toBe(pt['live.cause.ended'])
    await op.context.close()
    await st.context.close()
  })
})
