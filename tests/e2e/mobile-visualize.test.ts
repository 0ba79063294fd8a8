import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { publishModel, studentApi } from './answer-helpers'
import { expectConsoleErrors, hydrated, open, openPage, realmApi, url } from './browser'

/**
 * The student sees their result on a phone (issue 17, seed 001 §2 `mobile/tms/task/{taskId}/{answerId}/visualize`):
 * a student of their own (made through the APIs) delivers a choice question and an essay; the teacher asks the AI
 * assistant (the demo realm's local engine) and finalizes with a score, comments and the AI comment. The student
 * signs in on `/mobile/tms`, opens the delivered task from the delivered tab, sees the score (the essay out of 10),
 * the comments and the assistant's marks, sends an opinion on the AI comment, reloads and finds it locked.
 * A second test: a token-protected task opened by its address asks its code on the apply screen.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

const TEXT =
  'os jogos digitais ensinam muito. Eles exigem atenção, planejamento e trabalho em equipe equipe, e por isso podem ser usados nas aulas de matemática e de história quando o professor escolhe bem o jogo e o tempo de uso.'

async function classroom(kind: string) {
  const root = await realmApi('demo', 'root')
  const teacherNick = `prof-${kind}-${tag}`
  const studentNick = `aluno-${kind}-${tag}`
  const password = `senha-${kind}-1`
  await root('POST', 'mas/user', { nick: teacherNick, name: 'Professor Resultado', password, roles: ['teacher'] })
  await root('POST', 'mas/user', { nick: studentNick, name: 'Aluna Resultado', password, roles: [] })
  const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Turma ${kind} ${tag}` })
  await root('POST', `room/room/${room.id}/member`, { nick: studentNick })
  await root('POST', `room/room/${room.id}/member`, { nick: teacherNick })
  return { root, teacherNick, studentNick, password, room, teacher: await realmApi('demo', teacherNick, password) }
}

async function signIn(page: Awaited<ReturnType<typeof openPage>>['page'], nick: string, password: string) {
  await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
  await page.getByLabel(pt['mobile.feed.password']).fill(password)
  await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
}

describe('the student’s result on the mobile web', () => {
  it('opens a corrected task from the delivered tab, shows score and comments, takes one opinion', async () => {
    const k = await classroom('resultado')
    await k.root('POST', 'ledger/transaction/transfer', { targets: [k.teacherNick], points: 30, description: 'Revisão', idempotency_key: `resultado-${tag}` })
    const model = await k.teacher<{ id: string; questions: { id: string; type: string; options: { id: string; answer: boolean }[] }[] }>('POST', 'tms/model', {
      title: `Resultado ${tag}`,
      questions: [
        {
          type: 'single',
          statement: '<p>Qual é a capital do Brasil?</p>',
          score: 1,
          options: [
            { statement: '<p>Brasília</p>', answer: true },
            { statement: '<p>Salvador</p>', answer: false },
          ],
        },
        {
          type: 'essay',
          statement: '<p>Os jogos digitais podem ensinar?</p>',
          score: 10,
          options: {
            language: 'pt-BR',
            genre: 'gn-demo-diss',
            min_word_count: 20,
            max_word_count: 300,
            assessed_skill_ids: ['sk-demo-c1'],
            assessed_skill_group_id: '',
            support_text: '',
          },
        },
      ],
    })
    const task = await publishModel(k.teacher, model.id, k.room.id)
    const single = model.questions.find((q) => q.type === 'single')!
    const essay = model.questions.find((q) => q.type === 'essay')!
    const me = await studentApi(k.studentNick, k.password)
    const opened = await me<{ receipt: string }>('POST', `tms/answer-student/${task.id}/open`, {})
    const delivered = await me<{ id: string }>('POST', `tms/answer-student/${task.id}/deliver`, {
      answer_id: crypto.randomUUID(),
      receipt: opened.body.receipt,
      answers: { [single.id]: { option: single.options.find((o) => o.answer)!.id }, [essay.id]: { text: TEXT } },
    })
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(201)
    const answerId = delivered.body.id

    // Before the correction: the result's address says the answer is being corrected, and shows no score.
    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/${answerId}/visualize`))
    await signIn(page, k.studentNick, k.password)
    await page.waitForSelector('.mtms-summary')
    expect(await page.locator('.mtms-summary').textContent()).toContain(pt['mobile.tms.visualize.in_review'])
    expect(await page.getByTestId('total-score').count()).toBe(0)

    // The teacher: the assistant's revision (local engine, its marks stored), then the finalized correction.
    await k.teacher('POST', `tms/answer/${answerId}/ai-revision`, { confirm_points: 10, idempotency_key: `revisao-${tag}` })
    await k.teacher('PUT', `tms/answer/${answerId}/correction`, {
      action: 'finalize',
      scores: { [essay.id]: 7.5 },
      skill_grades: { [essay.id]: { 'sk-demo-c1': 7.5 } },
      marks: { [essay.id]: [{ category: 'semantics', excerpt: TEXT.split(' ').slice(-2).join(' '), explanation: 'Marca da professora.' }] },
      comments: { [essay.id]: 'Boa argumentação; revise as maiúsculas.' },
      final_considerations: 'Parabéns pela dedicação.',
      ai_comment: 'Texto claro, com uma repetição a corrigir.',
    })

    await open(page, url('demo.localhost', '/mobile/tms?tab=delivered'))
    await page.waitForSelector('.mtms-list')
    const card = page.locator(`.mtms-task[data-task="${task.id}"]`)
    expect(await card.textContent()).toContain(pt['mobile.tms.state.pending_agreement'])
    const link = card.getByRole('link', { name: pt['mobile.tms.see_result'] })
    expect(await link.getAttribute('href')).toBe(`/mobile/tms/task/${task.id}/${answerId}/visualize`)
    await link.click()
    await page.waitForURL((u) => u.pathname === `/mobile/tms/task/${task.id}/${answerId}/visualize`)
    await hydrated(page)

    // The score (1 + 7.5 of 11), the essay out of 10, the teacher's texts, the AI comment and the assistant's marks.
    const total = page.getByTestId('total-score')
    expect(await total.textContent()).toContain(pt['mobile.tms.visualize.score'].replace('{{score}}', '8,5').replace('{{max}}', '11'))
    const essayCard = page.locator(`[data-question="${essay.id}"]`)
    const essayText = await essayCard.textContent()
    expect(essayText).toContain(pt['mobile.tms.visualize.grade'].replace('{{grade}}', '7,5'))
    expect(essayText).toContain('Boa argumentação; revise as maiúsculas.')
    expect(await essayCard.locator('mark.error-mark').count()).toBeGreaterThanOrEqual(1)
    expect(await essayCard.locator('.error-list').textContent()).toContain(pt['correct.category.syntax'])
    // The teacher's own mark beside the assistant's, and the skill graded by hand.
    expect(await essayCard.locator('.error-list').textContent()).toContain('Marca da professora.')
    expect(await essayCard.getByRole('list', { name: pt['mobile.tms.visualize.skills'] }).textContent()).toBe(
      pt['mobile.tms.visualize.skill_grade'].replace('{{name}}', 'Norma culta').replace('{{grade}}', '7,5'),
    )
    const main = await page.locator('main').textContent()
    expect(main).toContain('Parabéns pela dedicação.')
    expect(main).toContain('Texto claro, com uma repetição a corrigir.')
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.screenshot({ path: `/tmp/mobile-visualize-result.png`, fullPage: true })

    // The opinion: sent once, then shown locked, also after a reload.
    const ai = page.getByRole('region', { name: pt['mobile.tms.visualize.ai_comment'] })
    await ai.getByLabel(pt['mobile.tms.visualize.opinion.disagree']).check()
    await ai.getByLabel(pt['mobile.tms.visualize.opinion_comment']).fill('A repetição foi proposital.')
    await ai.getByRole('button', { name: pt['mobile.tms.visualize.send_opinion'] }).click()
    await expect.poll(() => page.getByTestId('opinion-sent').count()).toBe(1)
    await page.reload()
    await hydrated(page)
    const locked = page.getByTestId('opinion-sent')
    expect(await locked.textContent()).toContain(pt['mobile.tms.visualize.opinion.disagree'])
    expect(await locked.textContent()).toContain('A repetição foi proposital.')
    expect(await locked.textContent()).toContain(pt['mobile.tms.visualize.opinion_locked'])
    expect(await page.getByRole('button', { name: pt['mobile.tms.visualize.send_opinion'] }).count()).toBe(0)
    expect(await page.locator('.mtms-summary').textContent()).toContain(pt['mobile.tms.state.finished'])
    await page.screenshot({ path: `/tmp/mobile-visualize-locked.png`, fullPage: true })
    // The API agrees: the opinion stays as sent.
    const again = await me('POST', `tms/answer-student/${task.id}/opinion`, { opinion: 'agree' })
    expect(again.status).toBe(409)

    // The expired variant's address (seed 001 §2) shows the same answer; its back link goes to the expired tab.
    await open(page, url('demo.localhost', `/mobile/tms/task/expired/${task.id}/${answerId}/visualize`))
    expect(await page.getByTestId('total-score').textContent()).toContain('8,5')
    expect(await page.getByRole('link', { name: pt['mobile.tms.apply.back'] }).getAttribute('href')).toBe('/mobile/tms?tab=expired')

    // Another answer id under the same task shows nothing of anyone's answer.
    const response = await page.goto(url('demo.localhost', `/mobile/tms/task/${task.id}/${answerId.slice(0, -1)}x/visualize`))
    expect(response?.status()).toBe(404)
    expect(await page.getByRole('alert').textContent()).toContain(pt['answer.error.answer_not_found'])
  })

  it('asks a token task’s code on the apply screen when opened by its address', async () => {
    const k = await classroom('token')
    const model = await k.teacher<{ id: string }>('POST', 'tms/model', {
      title: `Token direto ${tag}`,
      token: true,
      questions: [
        {
          type: 'true_false',
          statement: '<p>O Sol é uma estrela.</p>',
          score: 1,
          options: [
            { statement: '<p>Verdadeiro</p>', answer: true },
            { statement: '<p>Falso</p>', answer: false },
          ],
        },
      ],
    })
    const task = await publishModel(k.teacher, model.id, k.room.id)
    const { tokens } = await k.teacher<{ tokens: { code: string }[] }>('POST', `tms/token/task/${task.id}/room/${encodeURIComponent(k.room.name)}`, {})

    const { page } = await openPage(PHONE)
    // Deliberate: the wrong token is answered 403 by the API (the fetcher's request shows it).
    expectConsoleErrors(page, /status of 403/)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await signIn(page, k.studentNick, k.password)
    const field = page.getByLabel(pt['mobile.tms.token'])
    await field.waitFor()
    await hydrated(page)
    expect(await page.locator('main').textContent()).toContain(pt['answer.error.token_required'])
    await field.fill('ERRADO1')
    await page.getByRole('button', { name: pt['mobile.tms.open'] }).click()
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('main').textContent()).toContain(pt['answer.error.token_invalid'])
    await page.screenshot({ path: `/tmp/mobile-apply-token.png`, fullPage: true })
    await field.fill(tokens[0].code.toLowerCase())
    await page.getByRole('button', { name: pt['mobile.tms.open'] }).click()
    await page.waitForSelector('.mtms-question')
    expect(await page.locator('.mtms-question').textContent()).toContain('O Sol é uma estrela.')
    expect(new URL(page.url()).pathname).toBe(`/mobile/tms/task/${task.id}/apply`)
  })
})
