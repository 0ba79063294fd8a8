import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { DEFAULT_TIME_ZONE } from '~/lib/form-kit'
import { expectConsoleErrors, hydrated, open, openPage, realmApi, url } from './browser'

/**
 * The student's task list of the mobile web (issue 17, `mobile/tms`) on a phone: a student of their own (made through
 * the APIs) signs in, sees the task published to their room with its date status and deadline in the realm's time
 * zone, switches the menu filter and the content tabs (lessons say they are not available), and a token-protected
 * task refuses a wrong code in words and opens with the right one.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }

describe('mobile-web tasks', () => {
  it('lists a student’s tasks by filter and tab, and a token task refuses a wrong code', async () => {
    const root = await realmApi('demo', 'root')
    // The platform operator publishes (the realm's required categories are offered to them, as in axe.test.ts).
    const teacher = await realmApi('demo', 'platform')
    const nick = `aluno-tms-${tag}`
    const password = 'senha-do-aluno-1'
    await root('POST', 'mas/user', { nick, name: 'Aluno Tarefas', password, roles: [] })
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Turma tarefas ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick })
    const question = {
      type: 'single',
      statement: '<p>Quanto é 2 + 2?</p>',
      score: 1,
      options: [
        { statement: '<p>4</p>', answer: true },
        { statement: '<p>5</p>', answer: false },
      ],
    }
    const publish = async (title: string, token: boolean) => {
      const model = await teacher<{ id: string }>('POST', 'tms/model', { title, token, questions: [question] })
      const { categories } = await teacher<{ categories: { id: string; parent_id: string | null; required: boolean; selectable: boolean }[] }>(
        'GET',
        `tms/task/options/${model.id}`,
      )
      // For each required root, itself when selectable, else a selectable category under it (any depth).
      const under = (id: string): string | undefined => {
        const children = categories.filter((c) => c.parent_id === id)
        return children.find((c) => c.selectable)?.id ?? children.map((c) => under(c.id)).find(Boolean)
      }
      const chosen = categories.filter((c) => c.required && !c.parent_id).map((r) => (r.selectable ? r.id : under(r.id)!))
      return teacher<{ id: string; expire_at: string }>('POST', 'tms/task', { model_id: model.id, rooms: [room.id], categories: chosen })
    }
    const plain = await publish(`Tarefa aberta ${tag}`, false)
    const locked = await publish(`Tarefa com token ${tag}`, true)
    const { tokens } = await teacher<{ tokens: { code: string }[] }>('POST', `tms/token/task/${locked.id}/room/${encodeURIComponent(room.name)}`, {})
    const zone = (await root<{ time_zone: string }>('GET', 'mas/realm/demo')).time_zone || DEFAULT_TIME_ZONE

    const { page } = await openPage(PHONE)
    // Deliberate: the wrong token is answered 403 by the API (the fetcher's request shows it).
    expectConsoleErrors(page, /status of 403/)
    await open(page, url('demo.localhost', '/mobile/tms'))
    expect(await page.locator('html').getAttribute('data-theme')).toBe('OCEAN')
    expect(await page.getByRole('heading', { level: 2 }).textContent()).toBe(pt['mobile.tms.signin_title'])
    await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
    await page.getByLabel(pt['mobile.feed.password']).fill(password)
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await page.waitForSelector('.mtms-list')
    await hydrated(page)

    // The tasks tab, filter "All tasks": both tasks, with status, deadline in the realm's zone and the student's state.
    const card = page.locator(`.mtms-task[data-task="${plain.id}"]`)
    await expect.poll(() => card.count()).toBe(1)
    const deadline = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: zone }).format(new Date(plain.expire_at))
    const text = await card.textContent()
    expect(text).toContain(pt['tms.status.published'])
    expect(text).toContain(pt['mobile.tms.deadline'].replace('{{date}}', deadline))
    expect(text).toContain(pt['mobile.tms.state.none'])
    expect(await page.locator('.mtms-task').count()).toBe(2)
    expect(await card.getByRole('link', { name: pt['mobile.tms.open'] }).getAttribute('href')).toBe(`/mobile/tms/task/${plain.id}/apply`)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    // Menu filter: nothing delivered yet; published to the class lists both again.
    await page.getByLabel(pt['mobile.tms.filter']).selectOption('delivered')
    await page.waitForURL((u) => u.searchParams.get('filter') === 'delivered')
    await expect.poll(() => page.getByText(pt['mobile.tms.empty']).count()).toBe(1)
    await page.getByLabel(pt['mobile.tms.filter']).selectOption('class')
    await page.waitForURL((u) => u.searchParams.get('filter') === 'class')
    await expect.poll(() => page.locator('.mtms-task').count()).toBe(2)

    // Tabs: expired is empty, lessons (none published to this student), tasks again.
    await page.getByRole('link', { name: pt['mobile.tms.tab.expired'] }).click()
    await page.waitForURL((u) => u.searchParams.get('tab') === 'expired')
    await expect.poll(() => page.getByText(pt['mobile.tms.empty']).count()).toBe(1)
    expect(await page.getByRole('link', { name: pt['mobile.tms.tab.expired'] }).getAttribute('aria-current')).toBe('page')
    await page.getByRole('link', { name: pt['mobile.tms.tab.lessons'] }).click()
    await expect.poll(() => page.getByText(pt['mobile.lesson.empty']).count()).toBe(1)
    await page.getByRole('link', { name: pt['mobile.tms.tab.tasks'] }).click()
    await page.waitForURL((u) => u.searchParams.get('tab') === 'tasks')

    // The token task: a wrong code is refused in words on the field; the right one opens the task.
    const lockedCard = page.locator(`.mtms-task[data-task="${locked.id}"]`)
    await expect.poll(() => lockedCard.count()).toBe(1)
    expect(await lockedCard.textContent()).toContain(pt['mobile.tms.token_protected'])
    await lockedCard.getByLabel(pt['mobile.tms.token']).fill('ERRADO')
    await lockedCard.getByRole('button', { name: pt['mobile.tms.open'] }).click()
    await expect.poll(() => lockedCard.textContent()).toContain(pt['answer.error.token_invalid'])
    expect(await lockedCard.getByLabel(pt['mobile.tms.token']).getAttribute('aria-invalid')).toBe('true')
    await lockedCard.getByLabel(pt['mobile.tms.token']).fill(tokens[0].code.toLowerCase())
    await lockedCard.getByRole('button', { name: pt['mobile.tms.open'] }).click()
    await page.waitForURL((u) => u.pathname === `/mobile/tms/task/${locked.id}/apply`)
  })

  it('answers a task on the phone: choice, true/false and text questions, a draft kept on reload, delivery after the in-page confirmation', async () => {
    const root = await realmApi('demo', 'root')
    const teacher = await realmApi('demo', 'platform')
    const nick = `aluna-apply-${tag}`
    const password = 'senha-da-aluna-2'
    await root('POST', 'mas/user', { nick, name: 'Aluna Responde', password, roles: [] })
    const room = await root<{ id: string; name: string }>('POST', 'room/room', { name: `Turma respostas ${tag}` })
    await root('POST', `room/room/${room.id}/member`, { nick })
    const questions = [
      {
        type: 'single',
        statement: '<p>Quanto é 2 + 2?</p>',
        score: 1,
        options: [
          { statement: '<p>4</p>', answer: true },
          { statement: '<p>5</p>', answer: false },
        ],
      },
      {
        type: 'true_false',
        statement: '<p>A Terra gira em torno do Sol.</p>',
        score: 1,
        options: [
          { statement: '<p>Verdadeiro</p>', answer: true },
          { statement: '<p>Falso</p>', answer: false },
        ],
      },
      {
        type: 'multi',
        statement: '<p>Quais são pares?</p>',
        score: 1,
        options: [
          { statement: '<p>2</p>', answer: true },
          { statement: '<p>4</p>', answer: true },
          { statement: '<p>5</p>', answer: false },
        ],
      },
      { type: 'text', statement: '<p>Explique a fotossíntese.</p>', score: 2, options: { min_text_count: 1, max_text_count: 50 } },
    ]
    const model = await teacher<{ id: string }>('POST', 'tms/model', { title: `Tarefa para responder ${tag}`, questions })
    const { categories } = await teacher<{ categories: { id: string; parent_id: string | null; required: boolean; selectable: boolean }[] }>(
      'GET',
      `tms/task/options/${model.id}`,
    )
    const under = (id: string): string | undefined => {
      const children = categories.filter((c) => c.parent_id === id)
      return children.find((c) => c.selectable)?.id ?? children.map((c) => under(c.id)).find(Boolean)
    }
    const chosen = categories.filter((c) => c.required && !c.parent_id).map((r) => (r.selectable ? r.id : under(r.id)!))
    const task = await teacher<{ id: string }>('POST', 'tms/task', { model_id: model.id, rooms: [room.id], categories: chosen })

    const { page } = await openPage(PHONE)
    // Deliberate: the too-long answer is answered 422 by the API.
    expectConsoleErrors(page, /status of 422/)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
    await page.getByLabel(pt['mobile.feed.password']).fill(password)
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await page.waitForSelector('.mtms-questions')
    await hydrated(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Tarefa para responder ${tag}`)
    expect(await page.locator('.mtms-question').count()).toBe(4)

    // A text above the question's 50 words is refused in words at its question, nothing saved.
    const text = page.getByLabel(pt['mobile.tms.apply.your_answer'].replace('{{n}}', '4'))
    await text.fill(Array.from({ length: 60 }, () => 'palavra').join(' '))
    await page.getByRole('button', { name: pt['mobile.tms.apply.save_draft'] }).click()
    await expect.poll(() => page.locator('.mtms-question[data-question] .error').textContent()).toBe(pt['answer.error.text_too_long'])
    await page.screenshot({ path: '/tmp/mtms-apply-error.png', fullPage: true })

    // A draft: the choice and a text; kept after a reload.
    await page.getByRole('radio', { name: '4' }).check()
    await page.getByLabel(pt['mobile.tms.apply.your_answer'].replace('{{n}}', '4')).fill('A planta transforma luz em energia.')
    await page.getByRole('button', { name: pt['mobile.tms.apply.save_draft'] }).click()
    await expect.poll(() => page.locator('.toast').last().textContent()).toContain(pt['mobile.tms.apply.saved'])
    await page.reload()
    await page.waitForSelector('.mtms-questions')
    await hydrated(page)
    expect(await page.getByRole('radio', { name: '4' }).isChecked()).toBe(true)
    expect(await page.getByLabel(pt['mobile.tms.apply.your_answer'].replace('{{n}}', '4')).inputValue()).toBe('A planta transforma luz em energia.')
    expect(await page.getByText(pt['mobile.tms.state.draft']).count()).toBeGreaterThan(0)

    // Deliver: declining the confirmation stays; accepting delivers and lists the task as delivered.
    await page.getByRole('radio', { name: 'Verdadeiro' }).check()
    await page.getByRole('checkbox', { name: '2' }).check()
    await page.getByRole('checkbox', { name: '4' }).check()
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    const confirm = page.getByRole('dialog', { name: pt['mobile.tms.apply.confirm_title'] })
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain(pt['mobile.tms.apply.confirm'])
    await confirm.getByRole('button', { name: pt['mobile.tms.apply.keep_answering'] }).click()
    await confirm.waitFor({ state: 'hidden' })
    expect(new URL(page.url()).pathname).toBe(`/mobile/tms/task/${task.id}/apply`)
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await confirm.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await page.waitForURL((u) => u.pathname === '/mobile/tms' && u.searchParams.get('tab') === 'delivered')
    const card = page.locator(`.mtms-task[data-task="${task.id}"]`)
    await expect.poll(() => card.textContent()).toContain(pt['mobile.tms.state.submitted'])
    // Delivered: no way back to the apply screen, only to the result (its visualize screen).
    const links = card.getByRole('link')
    expect(await links.count()).toBe(1)
    expect(await links.getAttribute('href')).toMatch(new RegExp(`^/mobile/tms/task/${task.id}/[^/]+/visualize$`))
    // The server has it: two right objective answers scored, the text waits for the teacher.
    const answers = await root<{ items: { status: string; score: number }[] }>('GET', `tms/answer?task_id=${task.id}`)
    expect(answers.items).toHaveLength(1)
    expect(answers.items[0]).toMatchObject({ status: 'submitted', score: 3 })
    // Opening it again says why it cannot be answered.
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await expect.poll(() => page.getByRole('alert').textContent()).toContain(pt['answer.error.already_submitted'])
  })
})
