import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, signedInPage } from './browser'

/**
 * Content configurations and task-model generation (issue 18) in the console: a summary configuration refused with
 * a wrong title then saved, seen again after a reload and in its type's list; its guided tour stepped and closed
 * (remembered); a task model generated from typed text with the local engine, reviewed in the editor and saved.
 */
const pt = catalogues['pt-BR']
const TEXT = readFileSync(new URL('../fixtures/genesis/ciclo-da-agua.txt', import.meta.url), 'utf8')
const step = (n: number, of: number) => pt['tour.step'].replace('{{step}}', String(n)).replace('{{count}}', String(of))

describe('cgs/content_config', () => {
  it('creates a summary configuration (a wrong title refused on its field), reloads it and lists it; the tour is remembered', async () => {
    const { page } = await signedInPage('root', '/cgs/content_config/summary/create')
    expectConsoleErrors(page)
    await hydrated(page)
    // The guided tour: step by step, then closed for this user.
    const tour = page.getByRole('region', { name: pt['cgs.tour.summary.title'] })
    expect(await tour.textContent()).toContain(step(1, 4))
    await tour.getByRole('button', { name: pt['tour.next'] }).click()
    expect(await tour.textContent()).toContain(pt['cgs.tour.summary.2'])
    await tour.getByRole('button', { name: pt['tour.close'] }).click()
    expect(await page.getByRole('region', { name: pt['cgs.tour.summary.title'] }).count()).toBe(0)

    const title = page.getByLabel(pt['cgs.field.title'])
    await title.fill('A')
    await page.getByLabel(pt['cgs.field.depth']).selectOption('detailed')
    await page.getByLabel(pt['cgs.opt.focus.formulas']).check()
    // Class-plan options are not on a summary's form.
    expect(await page.getByLabel(pt['cgs.field.duration']).count()).toBe(0)
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true')
    expect(new URL(page.url()).pathname).toBe('/cgs/content_config/summary/create')

    await title.fill('Resumo de ciências')
    await page.getByRole('button', { name: pt['tms.form.save'] }).click()
    await page.waitForURL(/\/cgs\/content_config\/summary\/edit\//)
    await page.reload()
    await hydrated(page)
    expect(await page.getByLabel(pt['cgs.field.title']).inputValue()).toBe('Resumo de ciências')
    expect(await page.getByLabel(pt['cgs.field.depth']).inputValue()).toBe('detailed')
    expect(await page.getByLabel(pt['cgs.opt.focus.formulas']).isChecked()).toBe(true)
    expect(await page.getByText(pt['cgs.no_linked_lessons']).count()).toBe(1)
    // Closed before: the tour stays closed, offered again by its button.
    expect(await page.getByRole('region', { name: pt['cgs.tour.summary.title'] }).count()).toBe(0)
    expect(await page.getByRole('button', { name: pt['tour.show'] }).count()).toBe(1)
    await page.screenshot({ path: '/tmp/cgs-edit.png', fullPage: true })

    await page.goto(page.url().replace(/\/edit\/.*$/, ''))
    await hydrated(page)
    expect(await page.getByRole('table').textContent()).toContain('Resumo de ciências')
    await page.screenshot({ path: '/tmp/cgs-list.png', fullPage: false })
    // Another type's list does not show it; the list of every type does.
    await page.getByRole('link', { name: pt['genesis.kind.class_plan'], exact: true }).click()
    await page.waitForURL(/\/cgs\/content_config\/class_plan$/)
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toContain(pt['genesis.kind.class_plan'])
    expect(await page.getByText('Resumo de ciências').count()).toBe(0)
    await page.getByRole('link', { name: pt['cgs.all_types'] }).click()
    await page.waitForURL(/\/cgs\/content_config$/)
    await expect.poll(() => page.getByRole('table').textContent()).toContain('Resumo de ciências')
  })
})

describe('genesis/model/generate', () => {
  it('generates a task model from typed text, reviews it in the editor and saves it', async () => {
    const { page } = await signedInPage('root', '/genesis/model/generate')
    expectConsoleErrors(page)
    await hydrated(page)
    await page.getByLabel(pt['genesis.title']).fill('Ciclo da água')
    await page.getByLabel(pt['genesis.text']).fill(TEXT)
    await page.getByLabel(pt['tms.type.true_false']).fill('3')
    expect(await page.getByTestId('genesis-model-price').textContent()).toContain(pt['genesis.price'])
    await page.screenshot({ path: '/tmp/genesis-model-form.png', fullPage: true })
    await page.getByRole('button', { name: pt['genesis.generate'] }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: pt['genesis.confirm'] }).click()
    await expect.poll(() => page.getByText(pt['genesis.model.review']).count(), { timeout: 30_000 }).toBe(1)
    await page.screenshot({ path: '/tmp/genesis-model-draft.png', fullPage: false })
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await page.waitForURL(/\/tms\/model\/edit\//, { timeout: 30_000 })
    await hydrated(page)
    expect(await page.getByLabel(pt['resources.tms_model.fields.title']).inputValue()).toBe('Ciclo da água')
    // 2 cloze + 3 true/false + 2 single choice, as asked.
    expect(await page.locator('#questions-title').textContent()).toContain('7')
  })
})

describe('realm content-generation settings', () => {
  it('turns the handout off and picks a default summary configuration in the realm editor tab', async () => {
    const { page } = await signedInPage('root', '/realm/edit/demo')
    expectConsoleErrors(page)
    await hydrated(page)
    await page.getByRole('tab', { name: pt['resources.realm.tabs.genesis'] }).click()
    const form = page.getByRole('form', { name: pt['cgs.settings.title'] })
    const handout = form.getByRole('group', { name: pt['cgs.settings.activate_legend'] }).getByLabel(pt['cgs.settings.activate.handout'])
    expect(await handout.isChecked()).toBe(true)
    await handout.uncheck()
    const summary = form.getByRole('group', { name: pt['cgs.settings.default_legend'] }).getByLabel(pt['genesis.kind.summary'])
    await summary.selectOption({ label: 'Resumo de ciências' })
    await form.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => page.getByText(pt['cgs.settings.saved']).count()).toBeGreaterThan(0)
    await page.screenshot({ path: '/tmp/realm-genesis.png', fullPage: true })
    await page.reload()
    await hydrated(page)
    await page.getByRole('tab', { name: pt['resources.realm.tabs.genesis'] }).click()
    expect(await handout.isChecked()).toBe(false)
    expect(await summary.locator('option:checked').textContent()).toBe('Resumo de ciências')
    // Back to the demo realm's settings: the other browser tests share its database (the lesson screen's prices).
    await handout.check()
    await summary.selectOption('')
    await form.getByRole('button', { name: pt['tms.form.save'] }).click()
    await expect.poll(() => page.getByText(pt['cgs.settings.saved']).count()).toBeGreaterThan(0)
    await page.reload()
    await hydrated(page)
    await page.getByRole('tab', { name: pt['resources.realm.tabs.genesis'] }).click()
    expect(await handout.isChecked()).toBe(true)
  })
})
