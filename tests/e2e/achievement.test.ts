import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { publishModel, studentApi } from './answer-helpers'
import { expectConsoleErrors, hydrated, openPage, realmApi, signedInPage, url } from './browser'
import { PHONE, axeViolations, mobileSignIn } from './tms-student-helpers'

/**
 * A goal with an award reached by a student after a teacher's correction (issue 19): a teacher of their own makes an
 * objective and a goal model (API), publishes the goal to their room on the goal's screen, publishes a task there;
 * the student delivers it, the teacher finalizes the correction; the student sees the award under their tasks on a
 * phone with its current progress, and the published goal's screen lists it under the room with the same progress.
 */
const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

describe('goals and awards', () => {
  it('a student reaches a goal’s award after a correction and sees it on a phone; the teacher sees it per room', async () => {
    const root = await realmApi('demo', 'root')
    const teacherNick = `prof-meta-${tag}`
    const studentNick = `aluno-meta-${tag}`
    const password = 'senha-da-meta-1'
    await root('POST', 'mas/user', { nick: teacherNick, name: 'Professora Metas', password, roles: ['teacher'] })
    await root('POST', 'mas/user', { nick: studentNick, name: 'Aluna Premiada', password, roles: [] })
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Turma metas ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick: studentNick })
    await root('POST', `room/room/${room.id}/member`, { nick: teacherNick })

    const teacher = await realmApi('demo', teacherNick, password)
    const objective = await teacher<{ id: string }>('POST', 'achievement/objective', {
      title: `Metade das notas ${tag}`,
      entity: 'tasks',
      unit: 'score',
      percent: 0.5,
    })
    const model = await teacher<{ id: string }>('POST', 'achievement/goal', {
      title: `Meta da turma ${tag}`,
      objective_ids: [objective.id],
      awards: [
        { title: `Medalha ${tag}`, description: 'Metade das notas na semana.', kind: 'product', progress: [{ objective_id: objective.id, min: 1, max: 1 }] },
      ],
    })

    // The teacher publishes the model on its screen: the room, today to next week.
    const { page } = await signedInPage(teacherNick, `/achievement/goal/edit/${model.id}`, { password })
    expectConsoleErrors(page)
    await hydrated(page)
    const day = (d: Date) => `${String(d.getDate()).padStart(2, '0')}/${String(d.getMonth() + 1).padStart(2, '0')}/${d.getFullYear()}`
    const publish = page.getByRole('form', { name: pt['achievement.publish_title'] })
    await publish.getByLabel(room.name).check()
    await publish.getByRole('textbox', { name: pt['achievement.field.start_date'] }).fill(day(new Date()))
    await publish.getByRole('textbox', { name: pt['achievement.field.end_date'] }).fill(day(new Date(Date.now() + 7 * 86_400_000)))
    await publish.getByRole('button', { name: pt['achievement.publish'] }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/achievement/goal/edit/') && !u.pathname.endsWith(model.id))
    const goalPath = new URL(page.url()).pathname
    expect(await page.locator('p[role="status"]').textContent()).toContain(pt['achievement.status.active'])
    expect(await page.getByRole('region', { name: pt['achievement.grants'] }).textContent()).toContain(pt['achievement.no_grants'])

    // A task to the room; the student delivers it right; the teacher finalizes the correction.
    const task = await teacher<{ id: string; questions?: unknown }>('POST', 'tms/model', {
      title: `Tarefa da meta ${tag}`,
      questions: [
        {
          type: 'single',
          statement: '<p>Quanto é 2 + 2?</p>',
          score: 1,
          options: [
            { statement: '<p>4</p>', answer: true },
            { statement: '<p>5</p>', answer: false },
          ],
        },
      ],
    })
    const stored = await teacher<{ questions: { id: string; options: { id: string; answer: boolean }[] }[] }>('GET', `tms/model/${task.id}`)
    const published = await publishModel(teacher, task.id, room.id)
    const me = await studentApi(studentNick, password)
    const opened = await me<{ receipt: string }>('POST', `tms/answer-student/${published.id}/open`, {})
    const q = stored.questions[0]
    const delivered = await me<{ id: string }>('POST', `tms/answer-student/${published.id}/deliver`, {
      answer_id: crypto.randomUUID(),
      receipt: opened.body.receipt,
      answers: { [q.id]: { option: q.options.find((o) => o.answer)!.id } },
    })
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(201)
    await teacher('PUT', `tms/answer/${delivered.body.id}/correction`, { action: 'finalize' })

    // The student, on a phone, sees the award under their tasks.
    const phone = await openPage(PHONE)
    expectConsoleErrors(phone.page)
    await mobileSignIn(phone.page, '/mobile/tms', studentNick, password)
    const awards = phone.page.getByRole('region', { name: pt['achievement.mine.title'] })
    await expect.poll(() => awards.textContent()).toContain(`Medalha ${tag}`)
    expect(await awards.textContent()).toContain(pt['achievement.mine.of_goal'].replace('{{goal}}', `Meta da turma ${tag}`))
    // Its current progress on the objective (the award's band holds: no "kept" note).
    expect(await awards.textContent()).toContain(pt['achievement.mine.progress'].replace('{{progress}}', `Metade das notas ${tag}: 100%`))
    expect(await awards.textContent()).not.toContain(pt['achievement.mine.kept'])
    expect(await axeViolations(phone.page)).toEqual([])
    await awards.scrollIntoViewIfNeeded()
    await phone.page.screenshot({ path: '/tmp/goals-mobile-awards.png', fullPage: true })

    // The teacher's goal screen lists the award under the room.
    await page.goto(url('demo.localhost', goalPath))
    const grants = page.getByRole('region', { name: pt['achievement.grants'] })
    const row = await grants.getByRole('row', { name: new RegExp(`Aluna Premiada`) }).textContent()
    expect(row).toContain(room.name)
    expect(row).toContain(`Medalha ${tag}`)
    expect(row).toContain(`Metade das notas ${tag}: 100%`)
    await page.screenshot({ path: '/tmp/goals-goal-screen.png', fullPage: true })
  })
})
