import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { catalogues } from '~/i18n/catalogues'
import { expectConsoleErrors, hydrated, realmApi, signedInPage } from './browser'

/**
 * Lesson generation (issue 18) in the console with the local engine: the demo administrator uploads a TXT source,
 * sees the price of each content and the total, confirms it, watches the progress per content and sees the lesson;
 * then opens it in the lesson editor, adds a formula from the palette to a slide, nudges it, undoes, saves, reloads.
 */
const pt = catalogues['pt-BR']
const SOURCE = fileURLToPath(new URL('../fixtures/genesis/ciclo-da-agua.txt', import.meta.url))

describe('genesis/lesson_model/generate', () => {
  it('generates a lesson from an uploaded text with the local engine, credits confirmed, progress shown', async () => {
    const { page } = await signedInPage('root', '/genesis/lesson_model/generate')
    expectConsoleErrors(page)
    await hydrated(page)
    expect(await page.getByText(pt['genesis.engine_local']).count()).toBe(1)
    await page.getByLabel(pt['genesis.file']).setInputFiles(SOURCE)
    await expect.poll(() => page.getByText(pt['genesis.file_ready'].replace('{{name}}', 'ciclo-da-agua.txt')).count(), { timeout: 20_000 }).toBe(1)
    // Demo prices: 5 + 10 + 15 + 20 + 25 + 10 + 5.
    expect(await page.getByTestId('genesis-total').textContent()).toBe(pt['genesis.points'].replace('{{count}}', '90'))
    await page.getByRole('button', { name: pt['genesis.generate'] }).click()
    const dialog = page.getByRole('dialog')
    await expect.poll(() => dialog.textContent()).toContain(pt['genesis.confirm_message'].replace('{{count}}', '90'))
    await dialog.getByRole('button', { name: pt['genesis.confirm'] }).click()
    const progress = page.getByRole('status')
    await expect.poll(() => progress.textContent(), { timeout: 20_000 }).toContain(pt['genesis.progress_of.summary'])
    await expect.poll(() => page.getByRole('heading', { level: 2, name: pt['genesis.job.done'] }).count(), { timeout: 60_000 }).toBe(1)
    expect(await progress.locator('li[data-status="done"]').count()).toBe(7)
    const result = page.getByRole('article')
    expect(await result.getByRole('heading', { name: pt['genesis.kind.summary'] }).count()).toBe(1)
    expect(await result.textContent()).toContain('Evaporação')
    await page.screenshot({ path: '/tmp/genesis-result.png', fullPage: false })

    // Opened in the lesson editor: the generated slides in the slide editor.
    await page.getByRole('button', { name: pt['genesis.open_lesson'] }).click()
    await page.waitForURL((u) => /^\/lesson\/model\/edit\/[A-Za-z0-9_-]+$/.test(u.pathname) && !u.pathname.endsWith('/new'))
    const lessonId = new URL(page.url()).pathname.split('/').pop()!
    await hydrated(page)
    const root = await realmApi('demo', 'root')
    type Stored = { slides: { objects: { kind: string; latex?: string; x: number; y: number }[] }[] }
    const generated = await root<Stored>('GET', `lesson/model/${lessonId}`)
    expect(generated.slides.length).toBeGreaterThan(0)
    await page.getByRole('tab', { name: pt['lesson.kind.slide'] }).click()
    await page.getByRole('toolbar', { name: pt['slides.toolbar'] }).waitFor()
    await expect.poll(() => page.locator('.slide-list .slide-thumb').count()).toBe(generated.slides.length)

    // A formula from the palette on the first slide, nudged by keyboard, the nudge undone.
    await page.getByRole('button', { name: pt['slides.add.formula'] }).click()
    const dialog2 = page.getByRole('dialog', { name: pt['slides.add.formula'] })
    await dialog2.getByRole('tab', { name: pt['formula.palette.fractions'] }).click()
    await dialog2.getByRole('button', { name: pt['formula.insert_symbol'].replace('{{latex}}', '\\frac{a}{b}') }).click()
    await page.keyboard.type('1')
    await dialog2.getByRole('button', { name: pt['slides.formula.place'] }).click()
    const layer = page.getByRole('list', { name: pt['slides.layers'] }).getByRole('button', { name: /1$/ }).last()
    await layer.focus()
    const y = Number(await page.getByLabel('Y', { exact: true }).inputValue())
    await page.keyboard.press('Shift+ArrowDown')
    await expect.poll(() => page.getByLabel('Y', { exact: true }).inputValue()).toBe(String(y + 100))
    await page.keyboard.press('Control+z')
    await expect.poll(() => page.getByLabel('Y', { exact: true }).inputValue()).toBe(String(y))
    await page.screenshot({ path: '/tmp/lesson-slide-editor.png' })
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    const formulaOf = (l: Stored) => l.slides[0].objects.find((o) => o.kind === 'formula')
    await expect.poll(async () => formulaOf(await root<Stored>('GET', `lesson/model/${lessonId}`))?.latex).toBe('\\frac{1}{b}')
    const saved = await root<Stored>('GET', `lesson/model/${lessonId}`)
    expect(formulaOf(saved)?.y).toBe(y)

    // Reloaded and saved again unedited: the same slides.
    await page.reload()
    await hydrated(page)
    await page.getByRole('tab', { name: pt['lesson.kind.slide'] }).click()
    await page.getByRole('toolbar', { name: pt['slides.toolbar'] }).waitFor()
    await page.getByRole('button', { name: pt['tms.editor.save'] }).click()
    await expect.poll(() => page.getByRole('button', { name: pt['tms.editor.save'] }).isEnabled()).toBe(true)
    expect((await root<Stored>('GET', `lesson/model/${lessonId}`)).slides).toEqual(saved.slides)
  })
})
