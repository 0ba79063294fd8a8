import type { Locator, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { QUESTION_TYPES, type QuestionType } from '#shared/schemas/tms/question-types'
import { open, openPage, signInOnScreen, url } from './browser'

const pt = catalogues['pt-BR']
const title = `Avaliação e2e ${Date.now().toString(36)}`
const statementOf = (type: QuestionType) => `Enunciado da questão ${type}`

/** Types text into a rich-text field (@tiptap/react contenteditable) by its label. */
async function richText(scope: Locator, label: string, text: string) {
  const box = scope.getByRole('textbox', { name: label, exact: true })
  await box.click()
  await box.pressSequentially(text)
}

/** Fills the options of the question in `card` so that it satisfies its type's rules (seed 001 §5). */
async function fillQuestion(page: Page, card: Locator, type: QuestionType) {
  await richText(card, pt['tms.editor.statement'], statementOf(type))
  switch (type) {
    case 'text_ai':
      await richText(card, pt['tms.editor.resolution'], 'Evaporação, condensação e precipitação.')
      break
    case 'single':
    case 'multi':
      await richText(card, 'Alternativa A', 'Dois')
      await richText(card, 'Alternativa B', 'Quatro')
      await card.getByLabel('A é correta').check()
      break
    case 'fill_letters':
      await card.getByLabel(pt['tms.editor.letters_question']).fill('Capital da França')
      await card.getByLabel(pt['tms.editor.letters_answer'], { exact: true }).fill('Paris')
      break
    case 'fill_words':
      await card.getByLabel(pt['tms.editor.sentence']).fill('O [[sol]] nasce no [[leste]].')
      await card.getByRole('group', { name: pt['tms.editor.incorrect'] }).getByRole('button', { name: pt['tms.editor.add_item'] }).click()
      await card.getByLabel(`${pt['tms.editor.incorrect']} 1`).fill('lua')
      break
    case 'cloud':
      await card.getByLabel(pt['tms.editor.phrase']).fill('gatos gostam de leite')
      break
    case 'order_sentences':
      await card.getByLabel(`${pt['tms.editor.sentences']} 1`).fill('Acordar')
      await card.getByLabel(`${pt['tms.editor.sentences']} 2`).fill('Escovar os dentes')
      break
    case 'essay':
      await card.getByLabel(pt['tms.editor.genre']).selectOption({ label: 'Dissertativo-argumentativo' })
      await card.getByLabel('Argumentação').check()
      break
    case 'game':
      await card.getByLabel(pt['tms.editor.game_url']).fill('https://games.example.org/fracoes')
      break
    default:
      // info, section, text, true_false and media start valid once they have a statement.
      break
  }
  // The live preview shows the question as the student will see it.
  await card.getByRole('button', { name: `Pré-visualizar a questão ${await page.locator('.question-card').count()}`, exact: true }).click()
  await expect.poll(() => card.locator('.live-preview').textContent()).toContain(statementOf(type))
}

describe('task authoring in the browser', () => {
  it('authors a model with every question type, previews it, publishes it to a room and lists the task', async () => {
    const { context, page, errors } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', '/tms/model/create'))
    await signInOnScreen(page, 'teacher')
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(pt['pages.tms.model.create'])

    await page.getByLabel(pt['resources.tms_model.fields.title'], { exact: true }).fill(title)
    // "Disciplina" is a required category: publication needs it.
    await page.getByRole('group', { name: pt['resources.tms_model.fields.categories'], exact: true }).getByLabel('Matemática').check()

    for (const type of QUESTION_TYPES) {
      await page.getByLabel(pt['tms.editor.new_type']).selectOption(type)
      await page.getByRole('button', { name: pt['tms.editor.add_question'] }).click()
      const card = page.locator('.question-card').last()
      await expect.poll(() => card.locator('.type-select').inputValue()).toBe(type)
      await fillQuestion(page, card, type)
    }
    await expect.poll(() => page.locator('.question-card').count()).toBe(QUESTION_TYPES.length)

    // Reorder by keyboard: the first question (info) moves down one place and back.
    const grip = page.getByRole('button', { name: 'Arrastar a questão 1', exact: true })
    await grip.focus()
    await page.keyboard.press('ArrowDown')
    await expect.poll(() => page.locator('.question-card').nth(1).locator('.type-select').inputValue()).toBe('info')
    await page.getByRole('button', { name: 'Subir a questão 2', exact: true }).click()
    await expect.poll(() => page.locator('.question-card').first().locator('.type-select').inputValue()).toBe('info')

    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await page.waitForURL(/\/tms\/model\/edit\/[^/]+$/)
    const modelId = page.url().split('/').pop()!
    await expect.poll(() => page.locator('.question-card').count()).toBe(QUESTION_TYPES.length)

    // The preview shows every question as the student will see it.
    await open(page, url('demo.localhost', `/tms/model/preview/${modelId}`))
    const paper = await page.locator('main').innerText()
    for (const type of QUESTION_TYPES) expect(paper).toContain(statementOf(type))

    // Publish to a room: the task is listed with its date status.
    await open(page, url('demo.localhost', `/tms/task/edit/${modelId}`))
    await page.getByRole('group', { name: pt['tms.publish.rooms'] }).getByLabel('9º A').check()
    await page.getByRole('button', { name: pt['tms.publish.submit'] }).click()
    await page.waitForURL(/\/tms\/task\/detail\//)
    await open(page, url('demo.localhost', `/tms/task?like=${encodeURIComponent(title)}`))
    const row = page.getByRole('row').filter({ hasText: title })
    await expect.poll(() => row.count()).toBe(1)
    const status = await row.innerText()
    expect(status.includes(pt['tms.status.published']) || status.includes(pt['tms.status.scheduled'])).toBe(true)
    expect(status).toContain('9º A')

    expect(errors).toEqual([])
    await context.close()
  })

  it('warns before leaving the model editor with unsaved changes', async () => {
    const { context, page, errors } = await openPage({ viewport: { width: 1280, height: 900 } })
    await open(page, url('demo.localhost', '/tms/model/create'))
    await signInOnScreen(page, 'teacher')
    await page.waitForSelector('html[data-hydrated="true"]')
    await expect.poll(() => page.locator('h1').first().textContent()).toBe(pt['pages.tms.model.create'])
    await page.getByLabel(pt['resources.tms_model.fields.title'], { exact: true }).fill('Rascunho não salvo')

    // An in-app navigation asks first; "stay" keeps the editor and what was typed.
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    const dialog = page.getByRole('dialog', { name: pt['unsaved.title'] })
    await expect.poll(() => dialog.isVisible()).toBe(true)
    await dialog.getByRole('button', { name: pt['unsaved.stay'] }).click()
    await expect.poll(() => dialog.isVisible()).toBe(false)
    expect(new URL(page.url()).pathname).toBe('/tms/model/create')
    expect(await page.getByLabel(pt['resources.tms_model.fields.title'], { exact: true }).inputValue()).toBe('Rascunho não salvo')

    // Leaving confirmed goes on to the list.
    await page.getByRole('link', { name: pt['tms.form.back'] }).click()
    await dialog.getByRole('button', { name: pt['unsaved.leave'] }).click()
    await page.waitForURL((u) => u.pathname === '/tms/model')

    // Closing or reloading the tab asks through the browser.
    await open(page, url('demo.localhost', '/tms/model/create'))
    const field = page.getByLabel(pt['resources.tms_model.fields.title'], { exact: true })
    await field.click()
    await field.pressSequentially('Outro rascunho')
    const asked = new Promise<string>((resolve) =>
      page.once('dialog', (d) => {
        resolve(d.type())
        void d.dismiss()
      }),
    )
    void page.reload().catch(() => undefined)
    expect(await asked).toBe('beforeunload')

    expect(errors).toEqual([])
    await context.close()
  })
})
