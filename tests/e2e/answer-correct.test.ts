import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { publishModel, studentApi } from './answer-helpers'
import { expectConsoleErrors, hydrated, realmApi, signedInPage } from './browser'

/**
 * The teacher's correction with the AI assistant (issue 17), in the console: a student of their own (made through the
 * APIs) delivers a task with a choice question and an essay (through the student API: essays are not answerable on
 * the mobile web yet); the teacher, a user of their own with credits, finds the delivery on the task's page, opens
 * the correction, asks the assistant (the demo realm's local engine: rules, no model — said so), confirms its price,
 * sees the marks and the proposal, types a score above the question's (refused on the field), a valid one, and
 * finalizes; the student's answer then carries the score and the AI comment.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)

const ESSAY =
  'a tecnologia mudou a escola. Os alunos usam usam computadores e tablets todos os dias para pesquisar, escrever e conversar com os colegas. A internet ajuda muito, mas é preciso cuidado com as fontes e com o tempo diante das telas.'

describe('correction with the AI assistant', () => {
  it('a teacher corrects a delivered essay with the assistant (local engine) and finalizes; the student sees the result', async () => {
    const root = await realmApi('demo', 'root')
    const teacherNick = `prof-correcao-${tag}`
    const studentNick = `aluno-correcao-${tag}`
    const password = 'senha-correcao-1'
    await root('POST', 'mas/user', { nick: teacherNick, name: 'Professora Correção', password, roles: ['teacher'] })
    await root('POST', 'mas/user', { nick: studentNick, name: 'Aluno Redação', password, roles: [] })
    const room = await root<{ id: string }>('POST', 'room/room', { name: `Turma correção ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick: studentNick })
    await root('POST', `room/room/${room.id}/member`, { nick: teacherNick })
    // The teacher's credits for the revision (10 points in the demo price list).
    await root('POST', 'ledger/transaction/transfer', { targets: [teacherNick], points: 30, description: 'Correção', idempotency_key: `correcao-${tag}` })

    const teacher = await realmApi('demo', teacherNick, password)
    const questions = [
      {
        type: 'single',
        statement: '<p>Quanto é 3 + 4?</p>',
        score: 1,
        options: [
          { statement: '<p>7</p>', answer: true },
          { statement: '<p>8</p>', answer: false },
        ],
      },
      {
        type: 'essay',
        statement: '<p>Escreva sobre a tecnologia na escola.</p>',
        score: 10,
        options: {
          language: 'pt-BR',
          genre: 'gn-demo-diss',
          min_word_count: 20,
          max_word_count: 400,
          assessed_skill_ids: ['sk-demo-c1'],
          assessed_skill_group_id: '',
          support_text: '',
        },
      },
    ]
    const model = await teacher<{ id: string; questions: { id: string; type: string; options: { id: string; answer: boolean }[] }[] }>('POST', 'tms/model', {
      title: `Redação corrigida ${tag}`,
      questions,
    })
    const task = await publishModel(teacher, model.id, room.id)
    const single = model.questions.find((q) => q.type === 'single')!
    const essay = model.questions.find((q) => q.type === 'essay')!

    const me = await studentApi(studentNick, password)
    const opened = await me<{ receipt: string }>('POST', `tms/answer-student/${task.id}/open`, {})
    expect(opened.status).toBe(200)
    const delivered = await me<{ id: string }>('POST', `tms/answer-student/${task.id}/deliver`, {
      answer_id: crypto.randomUUID(),
      receipt: opened.body.receipt,
      answers: { [single.id]: { option: single.options.find((o) => o.answer)!.id }, [essay.id]: { text: ESSAY } },
    })
    expect(delivered.status, JSON.stringify(delivered.body)).toBe(201)

    // The task's page lists the delivery, on time, with its link to the correction.
    const { page } = await signedInPage(teacherNick, `/tms/task/detail/${task.id}`, { password })
    expectConsoleErrors(page)
    const deliveries = page.getByRole('region', { name: pt['correct.deliveries.title'] })
    await expect.poll(() => deliveries.textContent()).toContain(studentNick)
    expect(await deliveries.textContent()).toContain(pt['correct.delivery.on_time'])
    await deliveries.getByRole('link', { name: pt['correct.correct_student'].replace('{{name}}', 'Aluno Redação') }).click()
    await page.waitForURL((u) => u.pathname === `/tms/task/${task.id}/${delivered.body.id}/correct`)
    await hydrated(page)

    // The assistant says it is the local engine (no model), asks to confirm its price, then marks the text.
    const assistant = page.getByRole('region', { name: pt['correct.ai.title'] })
    expect(await assistant.textContent()).toContain(pt['correct.ai.engine_local'])
    await assistant.getByRole('button', { name: pt['correct.ai.run'].replace('{{points}}', '10') }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.textContent()).toContain(pt['correct.ai.confirm_paid'].replace('{{points}}', '10'))
    await dialog.getByRole('button', { name: pt['correct.ai.confirm_yes'] }).click()
    await expect.poll(() => assistant.textContent(), { timeout: 30_000 }).toContain(pt['correct.ai.state_success'])
    const marks = page.locator('mark.error-mark')
    await expect.poll(() => marks.count()).toBeGreaterThanOrEqual(2)
    expect(await page.locator('.error-list').first().textContent()).toContain(pt['correct.category.syntax'])
    expect(await page.locator('.ai-proposal').first().textContent()).toContain(pt['correct.ai.proposed'].split('{{')[0].trim())
    const aiComment = page.getByLabel(pt['correct.ai_comment'], { exact: true })
    await expect.poll(() => aiComment.inputValue()).toContain('sem modelo de IA')

    // A score above the question's is refused on its field; a valid one finalizes.
    const essayScore = page.getByLabel(pt['correct.score_label'].replace('{{max}}', '10'))
    await essayScore.fill('12')
    await page.getByRole('button', { name: pt['correct.finalize'] }).click()
    await expect.poll(() => essayScore.getAttribute('aria-invalid')).toBe('true')
    expect(await page.locator('.error-summary').textContent()).toContain(pt['answer.error.invalid_score'])
    await essayScore.fill('7,5')
    // The essay's assessed skill graded by hand (its score then comes from it), and a mark added by hand.
    await page.getByLabel(pt['correct.skills.grade'].replace('{{name}}', 'Norma culta').replace('{{weight}}', '2')).fill('8')
    const own = page.getByRole('group', { name: pt['correct.marks.title_n'].replace('{{n}}', '2') })
    await own.getByLabel(pt['correct.marks.category']).selectOption('semantics')
    await own.getByLabel(pt['correct.marks.excerpt']).fill('palavras que não estão lá')
    await own.getByRole('button', { name: pt['correct.marks.add'] }).click()
    await expect.poll(() => own.getByRole('alert').textContent()).toContain(pt['answer.error.excerpt_not_found'])
    await own.getByLabel(pt['correct.marks.excerpt']).fill('diante das telas')
    await own.getByLabel(pt['correct.marks.explanation']).fill('Prefira “em frente às telas”.')
    await own.getByLabel(pt['correct.marks.excerpt']).press('Enter')
    await expect.poll(() => own.locator('.error-list').textContent()).toContain('diante das telas')
    await page.locator('.correction-question').nth(1).screenshot({ path: '/tmp/correct-skills-marks.png' })
    await aiComment.fill('Bom texto. Cuide das maiúsculas e das repetições.')
    await page.getByLabel(pt['correct.final_considerations']).fill('Parabéns pelo esforço.')
    await page.getByRole('button', { name: pt['correct.finalize'] }).click()
    // With an AI comment the correction waits for the student's opinion (check review).
    await expect.poll(() => page.locator('.page-header').textContent(), { timeout: 30_000 }).toContain(pt['correct.status.pending_agreement'])
    expect(await page.getByText(pt['correct.closed_finalized']).count()).toBe(1)

    // The student's view of the answer: the score (1 + 8, the skill's grade), the final considerations, the edited AI
    // comment, the skill's grade and the teacher's mark.
    const mine = await me<{
      answer: {
        status: string
        correction: { score: number; final_considerations: string; ai_comment: string; skill_grades: unknown; teacher_marks: unknown } | null
      }
    }>('GET', `tms/answer-student/${task.id}/answer`)
    expect(mine.body.answer).toMatchObject({
      status: 'pending_agreement',
      correction: {
        score: 9,
        final_considerations: 'Parabéns pelo esforço.',
        ai_comment: 'Bom texto. Cuide das maiúsculas e das repetições.',
        skill_grades: { [essay.id]: { 'sk-demo-c1': 8 } },
        teacher_marks: { [essay.id]: [{ category: 'semantics', excerpt: 'diante das telas', explanation: 'Prefira “em frente às telas”.' }] },
      },
    })
  })
})
