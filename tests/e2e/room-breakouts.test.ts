import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { open, openPage, realmApi, signedInPage, url } from './browser'

/**
 * Live breakouts and the call's lock (issue 20), in the browser: a room editor in the console's live view of a room
 * and a student member in the room's participant view, each in their own browser context. The moderator locks the
 * call (the student sees it), assigns the student to one of the room's breakout rooms and opens the breakouts: her page
 * moves to the breakout's call; closing the breakouts brings her back to the main room.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('live breakouts', () => {
  it('a moderator and a student in two contexts: lock, move into a breakout and back', async () => {
    const root = await realmApi('demo', 'root')
    const nick = `aluna-grupo-${tag}`
    const password = 'senha-do-grupo-1'
    await root('POST', 'mas/user', { nick, name: 'Aluna do Grupo', password, roles: [] })
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Sala com grupos ${tag}`, type: 'meeting' })
    await root('POST', `room/room/${room.id}/member`, { nick })
    const group = await root<{ id: string; name: string }>('POST', `room/room/${room.id}/breakout`, { name: `Grupo Azul ${tag}` })

    const op = await signedInPage('root', `/room/live/${room.id}`)
    await op.page.waitForSelector('[data-live-status="open"]')
    const panel = op.page.getByRole('region', { name: pt['live.breakouts.title'] })
    // Nobody to assign yet: the empty state.
    await expect.poll(() => panel.textContent()).toContain(pt['live.breakouts.nobody'])

    const st = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    await open(st.page, url('demo.localhost', `/live/room/${room.id}`))
    await st.page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill(nick)
    await st.page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill(password)
    await st.page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
    await st.page.waitForSelector('[data-live-status="open"]')
    await expect.poll(() => st.page.getByRole('heading', { level: 1 }).textContent()).toBe(room.name)

    // The moderator locks the call: the student (present) sees it; unlocking clears it.
    // (The box follows the party's settings: it is checked once the party took the lock.)
    const lock = op.page.getByLabel(pt['live.lock'])
    await lock.click()
    await expect.poll(() => lock.isChecked()).toBe(true)
    await st.page.locator('[data-live-locked]').waitFor()
    expect(await st.page.locator('[data-live-locked]').textContent()).toBe(pt['live.locked'])
    await lock.click()
    await expect.poll(() => lock.isChecked()).toBe(false)
    await st.page.locator('[data-live-locked]').waitFor({ state: 'detached' })

    // Open breakouts: nothing assigned, nothing to open; then the student to the blue group.
    const choice = panel.getByLabel('Aluna do Grupo')
    await choice.waitFor()
    expect(await panel.getByRole('button', { name: pt['live.breakouts.start'] }).isDisabled()).toBe(true)
    await choice.selectOption(group.id)
    await panel.getByRole('button', { name: pt['live.breakouts.start'] }).click()

    // Her page moves to the breakout's call: told where, the heading names the breakout, she is connected there.
    await st.page.locator('[data-live-moved="breakout"]').waitFor()
    expect(await st.page.locator('[data-live-moved]').textContent()).toBe(pt['live.breakouts.moved_in'].replace('{{room}}', group.name))
    await expect.poll(() => st.page.getByRole('heading', { level: 1 }).textContent()).toBe(group.name)
    await st.page.waitForSelector('[data-live-status="open"]')
    // The moderator's view: she left the main room; the breakouts are open, with a link to the group's live view.
    await expect.poll(() => op.page.locator('.live-people li').count()).toBe(1)
    await panel.getByText(pt['live.breakouts.open']).waitFor()
    expect(await panel.getByRole('link', { name: pt['live.breakouts.visit'].replace('{{room}}', group.name) }).getAttribute('href')).toBe(
      `/room/live/${group.id}`,
    )
    // In the breakout she chats; the main room does not hear it.
    await st.page.getByLabel(pt['live.message']).fill(`No grupo ${tag}`)
    await st.page.getByRole('button', { name: pt['live.send'] }).click()
    await expect.poll(() => st.page.locator('.live-log').textContent()).toContain(`No grupo ${tag}`)
    expect(await op.page.locator('.live-log, .live-empty').first().textContent()).not.toContain(`No grupo ${tag}`)

    // Closing the breakouts brings her back to the main room.
    await panel.getByRole('button', { name: pt['live.breakouts.close'] }).click()
    await st.page.locator('[data-live-moved="return"]').waitFor()
    expect(await st.page.locator('[data-live-moved]').textContent()).toBe(pt['live.breakouts.moved_back'])
    await expect.poll(() => st.page.getByRole('heading', { level: 1 }).textContent()).toBe(room.name)
    await st.page.waitForSelector('[data-live-status="open"]')
    await expect.poll(() => op.page.locator('.live-people li').count()).toBe(2)
    await panel.getByText(pt['live.breakouts.open']).waitFor({ state: 'detached' })

    await op.context.close()
    await st.context.close()
  }, 120_000)
})
