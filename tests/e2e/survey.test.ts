import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, open, openPage, realmApi, signedInPage, url } from './browser'
import { PHONE, axeViolations, studentWithRoom } from './tms-student-helpers'

/**
 * Surveys (issue 19) end to end: a teacher writes a survey model in the console (a single-choice and a scale
 * question), publishes it to a student's room, the student answers on a phone viewport (a required question is
 * refused first, then the confirmation message shows), and the result screen charts the answer.
 */

const pt = catalogues['pt-BR']
const en = catalogues['en-US']
const tag = Date.now().toString(36)
const shots = process.env.SURVEY_SHOTS

describe('surveys', () => {
  it('a teacher publishes a survey, a student answers it on a phone and the result chart shows it', async () => {
    const { nick, password, room } = await studentWithRoom(tag, 'pesquisa')
    const title = `Pesquisa ${tag}`
    const { page } = await signedInPage('teacher@demo', '/survey/model/create')
    await hydrated(page)
    await page.getByLabel(pt['resources.survey.fields.title'], { exact: true }).fill(title)
    await page.getByLabel(pt['resources.survey.fields.confirmation_message'], { exact: true }).fill(`Valeu ${tag}!`)
    // Question 1: single choice (the default type), required.
    await page.getByRole('button', { name: pt['survey.editor.question_add'] }).click()
    const q1 = page.locator('li[data-question="0"]')
    await q1.getByLabel(pt['survey.editor.statement'], { exact: true }).fill('Gostou da aula?')
    await q1.getByLabel(pt['survey.editor.required'], { exact: true }).check()
    await q1.getByRole('textbox', { name: pt['survey.editor.option_n'].replace('{{n}}', '1'), exact: true }).fill('Sim')
    await q1.getByRole('textbox', { name: pt['survey.editor.option_n'].replace('{{n}}', '2'), exact: true }).fill('Não')
    // Question 2: a 1–5 scale.
    await page.getByRole('button', { name: pt['survey.editor.question_add'] }).click()
    const q2 = page.locator('li[data-question="1"]')
    await q2.getByLabel(pt['survey.editor.type'], { exact: true }).selectOption('scale')
    await q2.getByLabel(pt['survey.editor.statement'], { exact: true }).fill('Ritmo da aula')
    if (shots) await page.screenshot({ path: `${shots}/model-editor.png`, fullPage: true })
    await page.getByRole('button', { name: pt['survey.editor.save'] }).click()
    await page.waitForURL((u) => /^\/survey\/model\/edit\/[A-Za-z0-9_-]+$/.test(u.pathname))
    const modelId = new URL(page.url()).pathname.split('/').pop()!

    await page.getByRole('link', { name: pt['survey.model.publish'] }).click()
    await page.waitForURL((u) => u.pathname === `/survey/survey/edit/${modelId}`)
    await hydrated(page)
    await page.getByLabel(room.name).check()
    await page.getByRole('button', { name: pt['lesson.publish.submit'] }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/survey/survey/detail/'))
    const surveyId = new URL(page.url()).pathname.split('/').pop()!
    await page.getByText(pt['survey.detail.empty']).waitFor()
    // The publication's end changes on the detail screen (questions fixed, said on screen), and stays after a reload.
    await hydrated(page)
    await page.getByText(pt['survey.edit.questions_fixed']).waitFor()
    const end = page.getByLabel(pt['resources.tms_task.fields.expire_at'], { exact: true })
    // Typed in the page language's format (a text field: the browser's date-time input would follow the browser's).
    await end.fill('10/05/2099 18:30')
    // The form as shown (pt-BR): every text of the change is the pt-BR catalogue's, none the en-US one.
    const shot = await page.screenshot({ path: `${shots ?? '/tmp'}/survey-edit-form.png`, fullPage: true })
    expect(shot.byteLength).toBeGreaterThan(10_000)
    const section = (await page.getByRole('region', { name: pt['survey.edit.title'] }).innerText()).replace(/\s+/g, ' ')
    for (const key of ['survey.edit.targets_hint', 'survey.edit.save', 'survey.edit.undo', 'survey.publish.expire_hint'] as const) {
      expect(section).toContain(pt[key])
      expect(section).not.toContain(en[key])
    }
    await page.getByRole('button', { name: pt['survey.edit.save'] }).click()
    await page.getByText(pt['survey.edit.saved']).waitFor()
    await open(page, page.url())
    expect(await page.getByLabel(pt['resources.tms_task.fields.expire_at'], { exact: true }).inputValue()).toBe('10/05/2099 18:30')
    expect(await axeViolations(page)).toEqual([])
    // The published model is locked (seed 001 §4): its editor says so and does not save.
    await open(page, url('demo.localhost', `/survey/model/edit/${modelId}`))
    await page.getByText(pt['validation.survey.model_update_blocked']).first().waitFor()

    const phone = (await openPage(PHONE)).page
    await open(phone, url('demo.localhost', '/mobile/tms?tab=surveys'))
    await phone.getByLabel(pt['mobile.feed.nick']).fill(nick)
    await phone.getByLabel(pt['mobile.feed.password']).fill(password)
    await phone.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    // The surveys tab beside the tasks.
    await phone.getByRole('link', { name: pt['mobile.tms.tab.surveys'] }).click()
    await phone.getByRole('heading', { name: title }).waitFor()
    await hydrated(phone)
    await phone
      .locator('li', { has: phone.getByRole('heading', { name: title }) })
      .getByRole('link', { name: pt['mobile.survey.answer'] })
      .click()
    await phone.waitForURL((u) => u.pathname === `/mobile/survey/${surveyId}/apply`)
    await hydrated(phone)
    // The required question unanswered: refused on the phone, nothing sent.
    await phone.getByRole('radio', { name: '4' }).check()
    await phone.getByRole('button', { name: pt['mobile.survey.send'] }).click()
    await phone.getByRole('alert').filter({ hasText: pt['validation.survey.required_answer'] }).waitFor()
    await phone.getByRole('radio', { name: 'Sim' }).check()
    if (shots) await phone.screenshot({ path: `${shots}/phone-answer.png`, fullPage: true })
    await phone.getByRole('button', { name: pt['mobile.survey.send'] }).click()
    await phone.getByText(`Valeu ${tag}!`).waitFor()
    expect(new URL(phone.url()).searchParams.get('sent')).toBe('1')
    if (shots) await phone.screenshot({ path: `${shots}/phone-sent.png`, fullPage: true })
    // The phone's width is used (no horizontal scroll).
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

    await open(page, url('demo.localhost', `/survey/survey/${surveyId}/result`))
    await hydrated(page)
    expect(await page.getByText(pt['survey.result.respondents_one'].replace('{{count}}', '1')).count()).toBeGreaterThan(0)
    const first = page.locator('section.survey-result').first()
    await first.getByRole('img', { name: /Gostou da aula\?/ }).waitFor()
    const bars = first.locator('rect.chart-bar')
    expect(await bars.count()).toBe(2)
    const heights = await bars.evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('height'))))
    expect(heights[0]).toBeGreaterThan(0)
    expect(heights[1]).toBe(0)
    const row = first.getByRole('row', { name: /Sim/ })
    expect(await row.textContent()).toContain('100%')
    const scale = page.locator('section.survey-result').nth(1)
    expect(await scale.textContent()).toContain(pt['survey.result.mean'].replace('{{mean}}', '4'))
    if (shots) await page.screenshot({ path: `${shots}/result.png`, fullPage: true })
    // The room filter and the CSV export.
    await page.getByLabel(pt['survey.result.room']).selectOption(room.id)
    await page.waitForURL((u) => u.searchParams.get('room') === room.id)
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: pt['table.export_csv'] }).click()])
    expect(download.suggestedFilename()).toBe(`survey-${surveyId}-${room.id}.csv`)
    const csv = await readFile((await download.path())!, 'utf8')
    expect(csv).toContain('Gostou da aula?')
    expect(csv).toMatch(/Sim.*1.*100/)
  })

  it("a teacher withdraws a survey nobody answered: typed confirmation, and it leaves the student's list", async () => {
    const { teacher, nick, password, room } = await studentWithRoom(`${tag}w`, 'retirada')
    const title = `Retirada ${tag}`
    const model = await teacher<{ id: string }>('POST', 'survey/model', {
      title,
      questions: [{ id: 'q1', type: 'single', statement: 'Tudo bem?', options: ['Sim', 'Não'] }],
    })
    const survey = await teacher<{ id: string }>('POST', 'survey/survey', { model_id: model.id, publication_type: 'all', rooms: [room.id] })
    const student = await realmApi('demo', nick, password)
    const listed = async () => (await student<{ items: { id: string }[] }>('GET', 'survey/student?limit=100')).items.map((x) => x.id)
    expect(await listed()).toContain(survey.id)

    const { page } = await signedInPage('teacher@demo', `/survey/survey/detail/${survey.id}`)
    await hydrated(page)
    await page.getByRole('button', { name: pt['survey.withdraw.button'] }).click()
    const dialog = page.getByRole('dialog')
    const confirm = dialog.getByRole('button', { name: pt['survey.withdraw.delete_yes'] })
    expect(await confirm.isDisabled()).toBe(true)
    await dialog.getByLabel(pt['survey.withdraw.delete_type'].replace('{{word}}', pt['lesson.delete_word'])).fill(pt['lesson.delete_word'])
    expect(await axeViolations(page)).toEqual([])
    await confirm.click()
    await page.waitForURL((u) => u.pathname === '/survey/survey')
    await page.getByText(pt['survey.withdraw.done']).waitFor()
    expect(await listed()).not.toContain(survey.id)
  })
})
