import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { publishModel } from './answer-helpers'
import { expectConsoleErrors, hydrated, open, openPage, signedInPage, url } from './browser'
import { PHONE, axeViolations, mobileSignIn, studentWithRoom } from './tms-student-helpers'

/**
 * A room follows a track (issue 19): root sets a room's track in the room's form, publishes the first item's task
 * model to the room; the track's screen shows the room's items in order, the first published, the second with a link
 * to its publish screen; the student, on a phone, sees the "Trilha" section with the first item available.
 */
const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('a room follows a track', () => {
  it('is set in the room form, shows its items per room on the track screen and on the student’s phone', async () => {
    const { root, nick: studentNick, password, room } = await studentWithRoom(tag, 'percurso')
    const question = {
      type: 'single',
      statement: '<p>Quanto é 1/2 + 1/2?</p>',
      score: 1,
      options: [
        { statement: '<p>1</p>', answer: true },
        { statement: '<p>2</p>', answer: false },
      ],
    }
    const first = await root<{ id: string }>('POST', 'tms/model', { title: `Frações 1 ${tag}`, questions: [question] })
    const second = await root<{ id: string }>('POST', 'tms/model', { title: `Frações 2 ${tag}`, questions: [question] })
    const track = await root<{ id: string; title: string }>('POST', 'achievement/track', {
      title: `Trilha de frações ${tag}`,
      items: [
        { kind: 'task_model', id: first.id },
        { kind: 'task_model', id: second.id },
      ],
    })

    // The room's form: choose the track, save.
    const { page } = await signedInPage('root', `/room/edit/${room.id}`)
    expectConsoleErrors(page)
    await hydrated(page)
    await page.getByLabel(pt['resources.room.fields.track_id']).selectOption({ label: track.title })
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname === '/room')

    const published = await publishModel(root, first.id, room.id)

    // The track's screen: the room follows it; chosen, its items in order, the first published.
    await open(page, url('demo.localhost', `/track/edit/${track.id}`))
    await hydrated(page)
    const rooms = page.getByRole('region', { name: pt['achievement.track.rooms'] })
    await rooms.getByLabel(pt['achievement.track.choose_room']).selectOption(room.id)
    await rooms.getByRole('button', { name: pt['achievement.track.show'] }).click()
    await page.waitForURL((u) => u.searchParams.get('room') === room.id)
    const table = rooms.getByRole('table', { name: pt['achievement.track.progress_of'].replace('{{name}}', room.name) })
    const rows = table.locator('tbody tr')
    await expect.poll(() => rows.count()).toBe(2)
    const one = await rows.nth(0).textContent()
    expect(one).toContain(`Frações 1 ${tag}`)
    expect(one).toContain(pt['achievement.track.published_yes'].replace('{{n}}', '1'))
    expect(one).toContain(pt['achievement.track.completed_of'].replace('{{done}}', '0').replace('{{n}}', '1'))
    expect(await rows.nth(1).textContent()).toContain(pt['achievement.track.published_no'])
    expect(await rows.nth(1).getByRole('link', { name: pt['achievement.track.publish'] }).getAttribute('href')).toBe(`/tms/task/edit/${second.id}`)
    await page.screenshot({ path: '/tmp/room-track-console.png', fullPage: true })

    // The student's phone: the "Trilha" section, the first item available (its apply page), the second not yet.
    const phone = await openPage(PHONE)
    expectConsoleErrors(phone.page)
    await mobileSignIn(phone.page, '/mobile/tms', studentNick, password)
    const section = phone.page.getByRole('region', { name: pt['achievement.mine.track'] })
    await expect.poll(() => section.textContent()).toContain(track.title)
    const items = section.locator('li')
    expect(await items.nth(0).getAttribute('data-state')).toBe('available')
    const link = items.nth(0).getByRole('link', { name: pt['achievement.mine.track_open.task_model'] })
    expect(await link.getAttribute('href')).toContain(`/mobile/tms/task/${published.id}/apply`)
    expect(await items.nth(1).textContent()).toContain(pt['achievement.mine.track_state.later'])
    // One column on a phone: the section is no wider than the viewport.
    const box = await section.boundingBox()
    expect(box!.width).toBeLessThanOrEqual(PHONE.viewport!.width)
    expect(await axeViolations(phone.page)).toEqual([])
    await section.scrollIntoViewIfNeeded()
    await phone.page.screenshot({ path: '/tmp/room-track-phone.png', fullPage: true })
  })
})
