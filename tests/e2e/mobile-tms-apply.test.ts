import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { validQuestion } from '../support/tms-fixtures'
import { hydrated, open, openPage, url } from './browser'
import { PHONE, axeViolations, studentWithRoom } from './tms-student-helpers'

/**
 * The apply screen of the mobile web (issue 17, `mobile/tms/task/{taskId}/apply`) on a phone, with every kind of
 * widget: a student of their own performs a timed task with auto draft — fill letters, fill words by drag and drop
 * done with the keyboard, a word cloud and sentences ordered with the keyboard, an essay, an info block and a
 * section — sees the 5-minute warning, is stopped from saving with nothing answered, finds the automatic draft
 * and then their own saved draft after reloads, passes an axe audit, and delivers through the in-page confirmation,
 * which asks again for the essay's uncorrected slip. The server scores the objective answers. A one-minute task
 * warns of its last minute and, at the timeout, delivers what was answered by itself.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const tr = (key: string, values: Record<string, string | number>) => Object.entries(values).reduce((s, [k, x]) => s.replaceAll(`{{${k}}}`, String(x)), pt[key])

describe('mobile-web apply screen', () => {
  it('a student performs a timed task with every widget by keyboard, drafts, reloads and delivers after confirming', async () => {
    const { root, nick, password, publish } = await studentWithRoom(tag, 'aplica')
    const essay = validQuestion('essay')
    const questions = [
      { type: 'info', statement: '<p>Leia cada questão com atenção.</p>', media_type: 'text' },
      { type: 'fill_letters', statement: '<p>Escreva a capital do Brasil.</p>', score: 1, options: { question: 'Capital', answer: 'Brasilia' } },
      {
        type: 'fill_words',
        statement: '<p>Complete a frase.</p>',
        score: 1,
        options: { sentence: 'O [[sol]] nasce no [[leste]].', incorrect: ['oeste'], mode: 'drag_and_drop' },
      },
      { type: 'cloud', statement: '<p>Monte a frase.</p>', score: 1, shuffle: true, options: { phrase: 'eu gosto de ler', extra: ['nunca'] } },
      { type: 'section', statement: '<p>Parte 2</p>' },
      {
        type: 'order_sentences',
        statement: '<p>Ordene o dia.</p>',
        score: 1,
        options: { sentences: ['Acordei cedo.', 'Tomei café.', 'Fui à escola.'], incorrect: ['Voei até a lua.'] },
      },
      {
        ...essay,
        statement: '<p>Escreva sobre a escola.</p>',
        score: 2,
        options: { ...(essay.options as Record<string, unknown>), min_word_count: 5, max_word_count: 60 },
      },
    ]
    const title = `Prova com tempo ${tag}`
    const task = await publish({ title, questions, max_execution_time: 5, auto_draft: true }, { show_timer: true })

    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
    await page.getByLabel(pt['mobile.feed.password']).fill(password)
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await page.waitForSelector('.mtms-questions')
    await hydrated(page)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(title)

    // The timer (5 minutes at most) and, with less than 5 minutes left from the start, the warning.
    await expect.poll(() => page.getByRole('timer').textContent()).toMatch(/^0[45]:\d\d$/)
    await expect.poll(() => page.locator('.mtms-time-alert').textContent()).toBe(tr('mobile.tms.apply.time_warning', { count: 5 }))
    expect(await page.getByText(tr('mobile.tms.apply.max_time', { count: 5 })).count()).toBe(1)
    await page.screenshot({ path: '/tmp/mtms-apply-timer.png' })

    // Nothing answered: saving is stopped on the page, in words.
    await page.getByRole('button', { name: pt['mobile.tms.apply.save_draft'] }).click()
    await expect.poll(() => page.locator('.mtms-footer > .error').textContent()).toBe(pt['answer.error.no_answer'])

    // Fill letters, and fill words by keyboard: Enter on a word picks it, Enter on a gap places it.
    await page.getByLabel(tr('mobile.tms.apply.your_answer', { n: 2 })).fill('Brasilia')
    const fill = page.locator('.mtms-question[data-type="fill_words"]')
    const empty = pt['mobile.tms.apply.gap_empty']
    await fill.getByRole('button', { name: 'leste', exact: true }).press('Enter')
    expect(await fill.getByRole('button', { name: 'leste', exact: true }).getAttribute('aria-pressed')).toBe('true')
    await fill.getByRole('button', { name: tr('mobile.tms.apply.gap_button', { g: 2, word: empty }) }).press('Enter')
    await fill.getByRole('button', { name: 'sol', exact: true }).press('Enter')
    await fill.getByRole('button', { name: tr('mobile.tms.apply.gap_button', { g: 1, word: empty }) }).press('Enter')
    expect(await fill.getByRole('button', { name: tr('mobile.tms.apply.gap_button', { g: 1, word: 'sol' }) }).count()).toBe(1)

    // The model drafts automatically a while after the last change; a reload finds that draft.
    const autosaved = pt['mobile.tms.apply.autosaved'].split('{{')[0]
    await expect.poll(() => page.locator('.mtms-footer > p[role="status"]').textContent(), { timeout: 60_000 }).toContain(autosaved)
    await page.reload()
    await page.waitForSelector('.mtms-questions')
    await hydrated(page)
    expect(await page.getByLabel(tr('mobile.tms.apply.your_answer', { n: 2 })).inputValue()).toBe('Brasilia')
    expect(await fill.getByRole('button', { name: tr('mobile.tms.apply.gap_button', { g: 2, word: 'leste' }) }).count()).toBe(1)
    expect(await page.getByText(pt['mobile.tms.state.draft']).count()).toBeGreaterThan(0)

    // The cloud by keyboard: words joined with Enter, one moved back with Alt+↑; then a draft saved by hand.
    const cloud = page.locator('.mtms-question[data-type="cloud"]')
    for (const w of ['eu', 'de', 'gosto', 'ler']) await cloud.getByRole('group').getByRole('button', { name: w, exact: true }).press('Enter')
    await cloud.getByRole('listitem', { name: tr('mobile.tms.apply.item', { word: 'gosto', pos: 3, count: 4 }) }).press('Alt+ArrowUp')
    await expect.poll(() => cloud.locator('.mtms-seq-text').allTextContents()).toEqual(['eu', 'gosto', 'de', 'ler'])
    await page.getByRole('button', { name: pt['mobile.tms.apply.save_draft'] }).click()
    await expect.poll(() => page.locator('.toast').last().textContent()).toContain(pt['mobile.tms.apply.saved'])
    await page.reload()
    await page.waitForSelector('.mtms-questions')
    await hydrated(page)
    expect(await cloud.locator('.mtms-seq-text').allTextContents()).toEqual(['eu', 'gosto', 'de', 'ler'])
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    // Sentences ordered by keyboard (Enter on the move-up button), the distractor left out; the essay with a slip.
    const order = page.locator('.mtms-question[data-type="order_sentences"]')
    for (const s of ['Tomei café.', 'Acordei cedo.', 'Fui à escola.']) await order.getByRole('group').getByRole('button', { name: s }).press('Enter')
    await order.getByRole('button', { name: tr('mobile.tms.apply.move_up', { word: 'Acordei cedo.' }) }).press('Enter')
    await expect.poll(() => order.locator('.mtms-seq-text').allTextContents()).toEqual(['Acordei cedo.', 'Tomei café.', 'Fui à escola.'])
    await page.getByLabel(tr('mobile.tms.apply.your_essay', { n: 7 })).fill('Eu gosto muinto da minha escola. ela tem uma biblioteca grande.')
    await expect.poll(() => page.getByText(tr('mobile.tms.apply.essay_issues_one', {})).count()).toBe(1)
    // The Online Check (the realm's local checker, the Portuguese dictionary): the misspelling underlined, its suggestion.
    await page.getByRole('button', { name: pt['mobile.tms.apply.check'] }).click()
    const checked = page.getByRole('region', { name: pt['mobile.tms.apply.check_marks'] })
    await checked.waitFor()
    expect(await checked.locator('mark.error-mark').allTextContents()).toEqual(['muinto1', 'ela2'])
    expect(await checked.locator('.error-list').textContent()).toContain(tr('mobile.tms.apply.suggestions', { list: 'muito' }).split(',')[0])
    expect(await checked.textContent()).toContain(tr('mobile.tms.apply.check_used', { used: 1, limit: 5 }))
    await page.locator('.mtms-question[data-type="essay"]').screenshot({ path: '/tmp/mtms-apply-online-check.png' })
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: '/tmp/mtms-apply-widgets.png', fullPage: true })

    // Deliver: the in-page confirmation; "keep answering" stays, then yes, then the essay's slip asks again.
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    const confirm = page.getByRole('dialog', { name: pt['mobile.tms.apply.confirm_title'] })
    await confirm.waitFor()
    expect(await confirm.textContent()).toContain(pt['mobile.tms.apply.confirm'])
    await confirm.getByRole('button', { name: pt['mobile.tms.apply.keep_answering'] }).click()
    await confirm.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    await confirm.getByRole('button', { name: pt['mobile.tms.apply.deliver'] }).click()
    const again = page.getByRole('dialog', { name: pt['mobile.tms.apply.essay_confirm_title'] })
    await again.waitFor()
    // The device's slip and the Online Check's misspelling.
    expect(await again.textContent()).toContain(tr('mobile.tms.apply.essay_confirm_item', { n: 7, count: 2 }))
    expect(await axeViolations(page)).toEqual([])
    await page.screenshot({ path: '/tmp/mtms-apply-essay-confirm.png' })
    await again.getByRole('button', { name: pt['mobile.tms.apply.deliver_anyway'] }).click()
    await page.waitForURL((u) => u.pathname === '/mobile/tms' && u.searchParams.get('tab') === 'delivered')
    await expect.poll(() => page.locator(`.mtms-task[data-task="${task.id}"]`).textContent()).toContain(pt['mobile.tms.state.submitted'])

    // The server has it: the four objective answers right (1 point each), the essay waits for the teacher.
    const answers = await root<{ items: { status: string; score: number; max_score: number }[] }>('GET', `tms/answer?task_id=${task.id}`)
    expect(answers.items).toHaveLength(1)
    expect(answers.items[0]).toMatchObject({ status: 'submitted', score: 4, max_score: 6 })
  })

  it('at the timeout, what is answered is delivered without asking; the warnings came first', async () => {
    const { root, nick, password, publish } = await studentWithRoom(tag, 'tempo')
    const questions = [
      { type: 'fill_letters', statement: '<p>Escreva o nome da nossa estrela.</p>', score: 1, options: { question: '', answer: 'sol' } },
      { type: 'text', statement: '<p>Comente.</p>', score: 1, options: { min_text_count: 1, max_text_count: 50 } },
    ]
    const task = await publish({ title: `Prova de um minuto ${tag}`, questions, max_execution_time: 1 }, { show_timer: true })
    const { page } = await openPage(PHONE)
    await open(page, url('demo.localhost', `/mobile/tms/task/${task.id}/apply`))
    await page.getByLabel(pt['mobile.feed.nick']).fill(nick)
    await page.getByLabel(pt['mobile.feed.password']).fill(password)
    await page.getByRole('button', { name: pt['mobile.feed.signin'] }).click()
    await page.waitForSelector('.mtms-questions')
    await hydrated(page)
    // A minute at most: the last-minute warning from the start.
    await expect.poll(() => page.locator('.mtms-time-alert').textContent()).toBe(pt['mobile.tms.apply.time_last_minute'])
    await page.getByLabel(tr('mobile.tms.apply.your_answer', { n: 1 })).fill('sol')
    // The time runs out: the answer is delivered as it is, and the delivered tab lists it.
    await page.waitForURL((u) => u.pathname === '/mobile/tms' && u.searchParams.get('tab') === 'delivered', { timeout: 150_000 })
    const answers = await root<{ items: { status: string; score: number }[] }>('GET', `tms/answer?task_id=${task.id}`)
    expect(answers.items).toHaveLength(1)
    expect(answers.items[0]).toMatchObject({ status: 'submitted', score: 1 })
  }, 240_000)
})
