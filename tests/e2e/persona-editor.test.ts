import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { hydrated, open, signedInPage, url } from './browser'
import { personaStaff } from './persona-helpers'

/**
 * The persona editor used as its user would (issue 16 item 3): a persona created (a wrong value refused first), a
 * dialog added, the TXT fixture uploaded and seen processed, the terms accepted, then the chat test answering from
 * the dialog and, with a citation, from the uploaded knowledge; a reload keeps it all.
 */

const pt = catalogues['pt-BR']
const tag = Date.now().toString(36)
const FIXTURE = new URL('../fixtures/knowledge/ciclo-da-agua.txt', import.meta.url).pathname

describe('persona editor', () => {
  it('creates a persona, adds a dialog, learns the TXT fixture and answers in the chat test', async () => {
    const staff = await personaStaff(tag)
    const { page } = await signedInPage(staff.nick, '/personai/persona/create', { password: staff.password })
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(pt['pages.persona.create'])
    await hydrated(page)

    // A wrong value first: no name, a pitch past the seed's range.
    const pitch = page.getByRole('textbox', { name: pt['persona.editor.voice.settings.pitch'], exact: true })
    await pitch.fill('9')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(pt['validation.max_value'])
    expect(await pitch.getAttribute('aria-invalid')).toBe('true')
    const name = `Professora Água ${tag}`
    await page.getByRole('textbox', { name: pt['resources.persona.fields.name'], exact: true }).fill(name)
    await pitch.fill('1,4')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname.startsWith('/personai/persona/edit/'))
    await hydrated(page)
    const editor = new URL(page.url()).pathname
    expect(await pitch.inputValue()).toBe('1,4')

    // A conversation dialog: its text answer needs an animation (speech type animation), the browser's here.
    await page.getByRole('link', { name: pt['persona.editor.dialogs.open'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/dialog'))
    await hydrated(page)
    expect(await page.getByText(pt['persona.dialog.empty']).count()).toBe(1)
    await page.getByRole('link', { name: pt['pages.persona.dialog.create'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/dialog/create'))
    await hydrated(page)
    await page.getByRole('textbox', { name: pt['persona.dialog.fields.name'], exact: true }).fill('Chuva')
    await page.getByLabel(pt['persona.dialog.question_n'].replace('{{n}}', '1')).fill('Por que chove')
    await page.getByLabel(new RegExp(`^${pt['persona.dialog.fields.text']}`)).fill('Porque as gotas das nuvens ficam pesadas.')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => page.locator('.error-summary').textContent()).toContain(pt['validation.persona.animation_required'])
    await page.getByLabel(pt['persona.dialog.fields.animation']).selectOption('browser')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL((u) => u.pathname.endsWith('/dialog'))
    await hydrated(page)
    const row = page.locator('tbody tr', { hasText: 'Chuva' })
    await expect.poll(() => row.textContent()).toContain(pt['persona.stage.draft'])

    // The TXT fixture: pending, then processed (the list refreshes by itself).
    await open(page, url('demo.localhost', editor))
    await page.locator('#knowledge-files').setInputFiles(FIXTURE)
    await page.getByRole('button', { name: pt['persona.editor.knowledge.upload'] }).click()
    const item = page.locator('#persona-knowledge tbody tr', { hasText: 'ciclo-da-agua.txt' })
    await expect.poll(() => item.getAttribute('data-status'), { timeout: 20_000 }).toBe('processed')
    expect(await item.textContent()).toContain(pt['persona.stage.draft'])

    // The chat test needs the terms first.
    const question = page.getByRole('textbox', { name: pt['persona.editor.chat.question'], exact: true })
    expect(await question.isDisabled()).toBe(true)
    await page.getByRole('checkbox', { name: new RegExp(pt['persona.editor.terms.accept']) }).check()
    await page.getByRole('button', { name: pt['persona.editor.terms.submit'] }).click()
    await expect.poll(() => page.locator('#persona-terms [role="status"]').count()).toBe(1)
    await expect.poll(() => question.isDisabled()).toBe(false)

    await question.fill('Por que chove?')
    await page.getByRole('button', { name: pt['persona.editor.chat.send'] }).click()
    const answers = page.locator('.chat-answer')
    await expect.poll(() => answers.count()).toBe(1)
    expect(await answers.nth(0).getAttribute('data-source')).toBe('dialog')
    expect(await answers.nth(0).textContent()).toContain('Porque as gotas das nuvens ficam pesadas.')

    await question.fill('O que forma as nuvens?')
    await page.getByRole('button', { name: pt['persona.editor.chat.send'] }).click()
    await expect.poll(() => answers.count()).toBe(2)
    expect(await answers.nth(1).getAttribute('data-source')).toBe('knowledge')
    expect(await answers.nth(1).locator('cite').first().textContent()).toBe('ciclo-da-agua.txt')
    expect(await answers.nth(1).textContent()).toContain('O vapor sobe, esfria e forma as nuvens.')

    // Applying the stages makes the drafts saved; a reload keeps everything.
    await page.getByRole('button', { name: pt['persona.editor.save_items.apply'] }).click()
    await expect.poll(() => page.locator('#persona-save').textContent()).toContain(pt['persona.editor.save_items.none'])
    await page.reload()
    await hydrated(page)
    expect(await item.getAttribute('data-status')).toBe('processed')
    expect(await item.textContent()).toContain(pt['persona.stage.none'])
    expect(await page.locator('#persona-terms [role="status"]').count()).toBe(1)
    expect(await page.getByRole('textbox', { name: pt['resources.persona.fields.name'], exact: true }).inputValue()).toBe(name)
  })
})
