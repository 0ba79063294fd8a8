import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, open, openPage, realmApi, signInOnScreen, signedInPage, url } from './browser'

/**
 * The live channel screens (issue 13 "Live"), used in the browser: an operator in the console's live view and a
 * participant in the public participant view, each in their own browser context, over the real channel party.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

async function channel(members: { nick: string; permission: string }[], modes: Record<string, unknown> = {}, label = '') {
  const root = await realmApi('demo', 'root')
  const made = await root<{ id: string; name: string }>('POST', 'channel', {
    name: `Live ${tag} ${label}${members.length}${Object.keys(modes).join('')}`,
    modes,
    members: [{ nick: 'root', permission: 'owner' }, ...members],
  })
  return made
}

describe('live channel', () => {
  it('an operator and a participant in two contexts: a message and a raised hand reach the other side', async () => {
    const ch = await channel([{ nick: 'manager', permission: 'mobile' }])
    const op = await signedInPage('root', `/channel/live/${ch.id}`)
    await expect.poll(() => op.page.getByRole('heading', { level: 1 }).textContent()).toBe(`${pt['pages.channel.live']}: ${ch.name}`)
    await op.page.waitForSelector('[data-live-status="open"]')

    // The participant: signed in, on the public participant view, phone-sized.
    const part = await openPage({ viewport: { width: 390, height: 800 } })
    await open(part.page, url('demo.localhost', '/login'))
    await signInOnScreen(part.page, 'manager')
    await part.page.waitForSelector('nav[aria-label="Navegação principal"]')
    await open(part.page, url('demo.localhost', `/live/${ch.id}`))
    await part.page.waitForSelector('[data-live-status="open"]')
    // The participant view's heading is the channel's name once admitted (it said "Sala ao vivo").
    await expect.poll(() => part.page.getByRole('heading', { level: 1 }).textContent()).toBe(ch.name)

    // The operator sees the participant arrive.
    const people = op.page.locator('.live-people')
    await expect.poll(() => people.locator('li').count()).toBe(2)

    await part.page.getByLabel(pt['live.message']).fill('Professor, uma dúvida')
    await part.page.getByRole('button', { name: pt['live.send'] }).click()
    await expect.poll(() => op.page.locator('.live-log').textContent()).toContain('Professor, uma dúvida')

    await op.page.getByLabel(pt['live.message']).fill('Pode perguntar')
    await op.page.getByLabel(pt['live.message']).press('Enter')
    await expect.poll(() => part.page.locator('.live-log').textContent()).toContain('Pode perguntar')

    const hand = part.page.getByRole('button', { name: pt['live.raise_hand'] })
    await hand.click()
    await expect.poll(() => part.page.getByRole('button', { name: pt['live.lower_hand'] }).getAttribute('aria-pressed')).toBe('true')
    const hands = op.page.locator('.live-hands li')
    await expect.poll(() => hands.count()).toBe(1)
    await part.page.getByRole('button', { name: pt['live.lower_hand'] }).click()
    await expect.poll(() => hands.count()).toBe(0)

    // Moderated chat switched on live: the participant's box says why it is off.
    // The switch shows the party's answer (the room's setting), not a local guess.
    await op.page.getByLabel(pt['live.moderated_chat']).click()
    await expect.poll(() => op.page.getByLabel(pt['live.moderated_chat']).isChecked()).toBe(true)
    await expect.poll(() => part.page.getByLabel(pt['live.message']).isDisabled()).toBe(true)
    expect(await part.page.locator('#live-blocked').textContent()).toBe(pt['live.cause.moderated'])
    await op.context.close()
    await part.context.close()
  })

  it('a visitor joins a public channel as a guest by name; a members-only channel refuses the guest with its reason', async () => {
    const ch = await channel([])
    const guest = await openPage({ viewport: { width: 390, height: 800 } })
    await open(guest.page, url('demo.localhost', `/live/${ch.id}`))
    await guest.page.getByRole('button', { name: pt['live.as_guest'] }).click()
    await guest.page.getByLabel(pt['live.guest_name']).fill('Visitante Ana')
    await guest.page.getByRole('button', { name: pt['live.join'] }).click()
    await guest.page.waitForSelector('[data-live-status="open"]')
    expect(await guest.page.locator('.live-status').textContent()).toContain('Visitante Ana')
    await guest.page.getByLabel(pt['live.message']).fill('Oi, turma')
    await guest.page.getByRole('button', { name: pt['live.send'] }).click()
    await expect.poll(() => guest.page.locator('.live-log li[data-seq]').count()).toBe(1)

    const closed = await channel([], { invite_only: true })
    await open(guest.page, url('demo.localhost', `/live/${closed.id}`))
    await guest.page.getByRole('button', { name: pt['live.as_guest'] }).click()
    await guest.page.getByLabel(pt['live.guest_name']).fill('Visitante Ana')
    await guest.page.getByRole('button', { name: pt['live.join'] }).click()
    await expect.poll(() => guest.page.getByRole('alert').textContent()).toBe(pt['live.cause.members_only'])
    await guest.context.close()
  })

  it('a student member signs in on the participant view and joins an invite-only channel: the operator gets their message; a non-member student is refused with the reason', async () => {
    const ch = await channel([{ nick: 'student', permission: 'mobile' }], { invite_only: true }, 'student ')
    const op = await signedInPage('root', `/channel/live/${ch.id}`)
    await op.page.waitForSelector('[data-live-status="open"]')

    // The student has no console access: the participant view's own sign-in (the mobile-web one), on a phone.
    const st = await openPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })
    // Deliberate: the wrong password is answered 401 by the sign-in.
    expectConsoleErrors(st.page, /status of 401/)
    await open(st.page, url('demo.localhost', `/live/${ch.id}`))
    await st.page.getByLabel(pt['mobile.feed.nick'], { exact: true }).fill('student')
    await st.page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill('senha-errada')
    await st.page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
    await expect.poll(() => st.page.getByRole('alert').textContent()).toBe(pt['mobile.feed.credentials'])
    await st.page.getByLabel(pt['mobile.feed.password'], { exact: true }).fill('demo1234')
    await st.page.getByRole('button', { name: pt['mobile.feed.signin'], exact: true }).click()
    await st.page.waitForSelector('[data-live-status="open"]')
    expect(await st.page.locator('.live-account').textContent()).toContain(pt['live.signed_in_as'].replace('{{name}}', 'Ana Costa'))
    // Joined as the member she is (the ticket minted with her session carries her permission).
    expect(await st.page.locator('.live-status').textContent()).toContain(pt['live.role.mobile'])
    await expect.poll(() => op.page.locator('.live-people li').count()).toBe(2)

    await st.page.getByLabel(pt['live.message']).fill(`Dúvida da aluna ${tag}`)
    await st.page.getByRole('button', { name: pt['live.send'] }).click()
    await expect.poll(() => op.page.locator('.live-log').textContent()).toContain(`Dúvida da aluna ${tag}`)
    // And it is stored as hers (the party flushes chat to the realm API).
    const root = await realmApi('demo', 'root')
    await expect
      .poll(async () => (await root<{ items: { nick: string; text: string }[] }>('GET', `channel/live/${ch.id}/history`)).items)
      .toContainEqual(expect.objectContaining({ nick: 'student@demo', text: `Dúvida da aluna ${tag}` }))
    await op.context.close()

    // An invite-only channel she is not a member of: refused, saying why.
    const other = await channel([], { invite_only: true }, 'other ')
    await open(st.page, url('demo.localhost', `/live/${other.id}`))
    await expect.poll(() => st.page.getByRole('alert').textContent()).toBe(pt['live.cause.members_only'])

    await st.page.getByRole('button', { name: pt['mobile.feed.signout'] }).click()
    await expect.poll(() => st.page.getByRole('heading', { level: 2 }).first().textContent()).toBe(pt['live.member_signin'])
    await st.context.close()
  })
})
